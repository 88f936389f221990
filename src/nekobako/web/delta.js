// A `delta` message's patch applied to the message the client holds (server/deltas.py writes
// them; docs/protocol.md). Pure: returns a new value, sharing the parts that did not change, and
// never changes `old` (the table page keeps the previous view to tell what is new).
export function applyPatch(old, patch) {
  if (patch === null || patch === undefined) return old;
  if ("=" in patch) return patch["="];
  if ("o" in patch) {
    if (!old || typeof old !== "object" || Array.isArray(old)) throw new Error("object patch for a non-object");
    const out = { ...old };
    for (const key of patch.x || []) delete out[key];
    for (const [key, change] of Object.entries(patch.o)) out[key] = applyPatch(old[key], change);
    return out;
  }
  if ("a" in patch) {
    if (!Array.isArray(old) || patch.a > old.length) throw new Error("array patch for a short or non-array");
    const items = old.slice(0, patch.a);
    for (const [index, change] of Object.entries(patch.i || {}))
      items[Number(index)] = applyPatch(items[Number(index)], change);
    return patch["+"] ? items.concat(patch["+"]) : items;
  }
  throw new Error("not a patch");
}
