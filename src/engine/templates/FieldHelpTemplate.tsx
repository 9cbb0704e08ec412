import type { FieldHelpProps } from '@rjsf/utils';

export default function FieldHelpTemplate({ help, fieldPathId }: FieldHelpProps) {
  if (!help) return null;
  return (
    <div className="field__help" id={`${fieldPathId.$id}__help`}>
      {help}
    </div>
  );
}
