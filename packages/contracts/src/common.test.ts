import { describe, expect, it } from 'vitest';
import { InviteUserBody } from './auth.js';
import { BodyId, BROKEN_UNICODE_REFUSED, FrameId, Id, inputText, MAX_ID, NUL_REFUSED } from './common.js';
import { NotionConnectBody } from './notion.js';
import { AssignRoleBody } from './roles.js';

describe('ids', () => {
  it('accepts only plain positive integers in paths', () => {
    expect(Id.parse('42')).toBe(42);
    expect(Id.parse(String(MAX_ID))).toBe(MAX_ID);
    for (const bad of ['', '0', '-1', '1.5', '0x1', '1e0', ' 1', 'abc', '01', '2147483648', '99999999999']) {
      expect(Id.safeParse(bad).success, bad).toBe(false);
    }
  });

  it('accepts only numbers in bodies, and says which field is missing', () => {
    expect(AssignRoleBody.safeParse({ user_id: 1, role_id: 2 }).success).toBe(true);
    for (const user_id of [true, [1], '1', 0, 1.5, null]) {
      expect(AssignRoleBody.safeParse({ user_id, role_id: 2 }).success, String(user_id)).toBe(false);
    }
    const missing = InviteUserBody.safeParse({ email: 'a@example.com' });
    expect(missing.success).toBe(false);
    expect(missing.error?.issues[0]?.message).toBe('Role is required');
  });

  it('refuses ids past the 32-bit columns they name, in bodies and socket frames too', () => {
    expect(BodyId('Bot').safeParse(MAX_ID).success).toBe(true);
    expect(BodyId('Bot').safeParse(MAX_ID + 1).error?.issues[0]?.message).toBe(
      `Bot must be at most ${MAX_ID}`,
    );
    expect(FrameId.safeParse(0).success).toBe(true);
    expect(FrameId.safeParse(99_999_999_999).success).toBe(false);
  });
});

describe('text from clients', () => {
  it('refuses NUL characters, which PostgreSQL text cannot store, before any other rule', () => {
    const name = inputText().trim().min(1).max(10);
    expect(name.parse(' Ada ')).toBe('Ada');
    expect(name.safeParse('A\u0000da').error?.issues[0]?.message).toBe(NUL_REFUSED);
  });

  it('refuses half a surrogate pair, which jsonb cannot store, and keeps whole ones', () => {
    expect(inputText().parse('ok \ud83d\ude00')).toBe('ok 😀');
    for (const broken of ['\ud800', 'a\udc00', '\ude00\ud83d']) {
      expect(inputText().safeParse(broken).error?.issues[0]?.message, broken).toBe(BROKEN_UNICODE_REFUSED);
    }
  });

  it('takes only visible ASCII as a Notion token, which travels in a header', () => {
    expect(NotionConnectBody.safeParse({ token: 'ntn_abc123' }).success).toBe(true);
    for (const token of ['ntn abc', 'ntn_\u0000', 'ntn_é', 'ntn_\ud800']) {
      expect(NotionConnectBody.safeParse({ token }).success, token).toBe(false);
    }
  });
});
