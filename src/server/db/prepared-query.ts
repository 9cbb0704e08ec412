// A hot query built and compiled once. Kysely builds, transforms and compiles a query anew on
// every call; for the session check every member request makes, that was about a tenth of the
// CPU under load (ADR 017). The query is built once per database handle with marker values
// (the dialect decides the SQL: `?` on SQLite, `$1` on PostgreSQL), and each run puts the
// caller's values where the markers stand. Plugins still see the query once, when it is built,
// and every result, as before.
import type { Compilable, CompiledQuery, Kysely } from 'kysely';

/** Builds the query from stand-ins typed as the values they stand for; `arity` says how many.
 *  Each stand-in is an object only this module makes, so its place among the parameters is certain. */
export function preparedQuery<DB, Row, Args extends unknown[]>(build: (db: Kysely<DB>, ...values: Args) => Compilable<Row>, arity: Args['length']) {
  const compiledFor = new WeakMap<Kysely<DB>, { query: CompiledQuery<Row>; places: number[] }>();
  function compile(db: Kysely<DB>) {
    const markers = Array.from({ length: arity }, (_, marker) => ({ marker }));
    const query = build(db, ...(markers as unknown as Args)).compile();
    const places = markers.map((marker) => query.parameters.indexOf(marker as unknown));
    if (places.includes(-1) || query.parameters.length !== arity) throw new Error('preparedQuery: every parameter must be one of its markers, each used once');
    const prepared = { query, places };
    compiledFor.set(db, prepared);
    return prepared;
  }
  return async (db: Kysely<DB>, ...values: Args): Promise<Row[]> => {
    const { query, places } = compiledFor.get(db) ?? compile(db);
    const parameters = [...query.parameters];
    places.forEach((place, i) => (parameters[place] = values[i]));
    return (await db.executeQuery<Row>({ ...query, parameters })).rows;
  };
}
