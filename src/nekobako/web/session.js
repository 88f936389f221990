// Who is using this page: the logged-in user (or guest), null when nobody. Pages listen for changes.
import * as api from "./api.js";

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

// Ask the server who the session cookie belongs to (once at start-up).
export async function loadUser() {
  try {
    setUser(await api.me());
  } catch {
    setUser(null);
  }
  return user;
}
