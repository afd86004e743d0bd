// Files in and out of the lab (the editor's tab and the Tournament tab share them): a text
// written to a download, and a picked or dropped .py file read as a bot ({name, source}).

import * as saved from "./saved.js";

/** Save ``text`` as the file ``name`` (a download). */
export function download(name, text, type) {
  const a = document.createElement("a");
  a.href = URL.createObjectURL(new Blob([text], { type }));
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}

/** A picked or dropped file as a bot: its name made a bot's name (other characters become
 * "_"; "bot.py" when that is still not one) and its text. */
export async function readBot(file) {
  const name = file.name.replace(/[^A-Za-z0-9_.-]/g, "_");
  return { name: saved.NAME.test(name) ? name : "bot.py", source: await file.text() };
}
