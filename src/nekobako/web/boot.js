// What the server put inside the page for it to draw at once, without asking first (issue 17: a
// phone on a slow network waits for nothing in a row): `lang` and `catalogue` (the words of the
// reader's language, i18n.js), `user` (who is signed in, session.js) and on a table page `state`
// (the reader's first state message, ws.js). Filled by server/pages.py `boot`; JSON, never run.
function read() {
  try {
    return JSON.parse(document.getElementById("boot")?.textContent || "{}");
  } catch {
    return {};
  }
}

export const boot = read();
