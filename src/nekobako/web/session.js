// Who is using this page: the logged-in user (or guest), null when nobody. Pages listen for changes.
import * as api from "./api.js";
import { boot } from "./boot.js";

let user = null;
const listeners = new Set();

export function currentUser() {
  return user;
}

export function setUser(next) {
  user = next;
  for (const fn of listeners) fn(user);
}

export function onUserChange(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

// Who the session cookie belongs to: said inside the page by the server (boot.js), else asked
// (`GET /api/auth/me`) once at start-up.
export async function loadUser() {
  if ("user" in boot) {
    setUser(boot.user);
    return user;
  }
  try {
    setUser(await api.me());
  } catch {
    setUser(null);
  }
  return user;
}
