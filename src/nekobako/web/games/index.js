// The renderer of a game, by the name the server gives (`table.game`): games/<name>.js. No list
// of games lives here; the server's registry is the one list (`/api/games`).
export function loadGame(name) {
  if (!/^[a-z][a-z0-9_]*$/.test(String(name))) return Promise.reject(new Error(`unknown game ${name}`));
  return import(`./${name}.js`);
}
