declare module 'maildev' {
  interface MailDevOptions {
    smtp?: number;
    web?: number;
    ip?: string;
    webIp?: string;
    silent?: boolean;
    disableWeb?: boolean;
  }
  export default class MailDev {
    constructor(options: MailDevOptions);
    /** The smtp-server instance it receives with; its options are read per command. */
    smtp: { options: { lenientAddressParsing?: boolean } };
    listen(callback?: (error?: Error) => void): void;
    close(callback?: () => void): void;
  }
}
