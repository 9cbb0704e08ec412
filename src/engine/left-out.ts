// What stands in the client bundle for an rjsf registry entry the bundle leaves out
// (tools/vite-plugin-slim-client.ts says which, and why): a component that fails loudly if a form
// ever reaches it, instead of rendering wrongly.
export function leftOut(name: string) {
  return function LeftOut(): never {
    throw new Error(`rjsf's ${name} is left out of the client bundle (tools/vite-plugin-slim-client.ts)`);
  };
}
