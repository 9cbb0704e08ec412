import { describe, expect, it } from 'vitest';
import { fillMessage } from '../../src/shared/validation/message-params';

describe('fillMessage', () => {
  it('fills {limit} from the keyword the message is for, {min}/{max} from the node', () => {
    const node = { minLength: 20, maxLength: 80 };
    expect(fillMessage('{limit}文字以内', node, 'maxLength')).toBe('80文字以内');
    expect(fillMessage('{limit}文字以上', node, 'minLength')).toBe('20文字以上');
    expect(fillMessage('{min}〜{max}文字', node)).toBe('20〜80文字');
    expect(fillMessage('{min}〜{max}個', { minItems: 1, maxItems: 8 })).toBe('1〜8個');
    expect(fillMessage('{max}以下', { maximum: 5 })).toBe('5以下');
  });

  it('leaves a parameter the node cannot fill, so a test can catch it', () => {
    expect(fillMessage('{limit}文字以内', { maxLength: 80 }, 'pattern')).toBe('{limit}文字以内');
    expect(fillMessage('{max}文字以内', {})).toBe('{max}文字以内');
    expect(fillMessage('変更なし', { maxLength: 3 }, 'maxLength')).toBe('変更なし');
  });
});
