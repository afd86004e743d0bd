// Canonical JSON, equal to Python's json.dumps(x, sort_keys=True, separators=(",", ":")): the
// form of every data-action and data-hint-action attribute.

export function canonical(x) {
  if (x === null || typeof x !== "object") {
    if (typeof x === "string") {
      return JSON.stringify(x).replace(/[\u007f-\uffff]/g, (c) => "\\u" + c.charCodeAt(0).toString(16).padStart(4, "0"));
    }
    if (typeof x === "number" && Number.isInteger(x)) return String(x);
    return JSON.stringify(x);
  }
  if (Array.isArray(x)) return "[" + x.map(canonical).join(",") + "]";
  return "{" + Object.keys(x).sort().map((k) => canonical(k) + ":" + canonical(x[k])).join(",") + "}";
}
