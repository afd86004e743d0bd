// The bot lab's editor and chart, bundled by build.py with esbuild into dist/web/lab/editor.js
// (an ES module, minified, nothing from another origin): CodeMirror 6 with Python highlighting
// and uPlot.  The lab page (web/lib/lab/*.js) imports it at run time; this file is not loaded
// as it is (its bare imports name npm packages).

import { EditorView, minimalSetup } from "codemirror";
import { EditorState, StateEffect, StateField, Prec } from "@codemirror/state";
import { Decoration, keymap, lineNumbers, highlightActiveLine, highlightActiveLineGutter } from "@codemirror/view";
import { indentWithTab, insertNewlineAndIndent } from "@codemirror/commands";
import { indentUnit, bracketMatching } from "@codemirror/language";
import { python } from "@codemirror/lang-python";
import uPlot from "uplot";
import "uplot/dist/uPlot.min.css";

export { uPlot };

const setErrorLine = StateEffect.define();
const errorLine = StateField.define({
  create: () => Decoration.none,
  update(deco, tr) {
    deco = deco.map(tr.changes);
    for (const e of tr.effects) {
      if (e.is(setErrorLine)) {
        deco = e.value === null ? Decoration.none
          : Decoration.set([Decoration.line({ class: "cm-error-line", attributes: { "data-error-line": String(e.value.number) } }).range(e.value.from)]);
      }
    }
    if (tr.docChanged) deco = Decoration.none;       // an edit ends the old error's mark
    return deco;
  },
  provide: (f) => EditorView.decorations.from(f),
});

/** A Python editor in `parent` holding `doc`; onChange(text) after each edit. Returns
 *  {view, getText(), setText(text), markLine(n | null)} (lines counted from 1). */
export function createEditor(parent, doc, { onChange = () => {}, label = "" } = {}) {
  // Enter indents the new line; when the next key typed there is a space, that indentation
  // goes and the typed spaces make it, so code typed key by key (with its own indentation)
  // comes out as typed.  No completion pop-up and no auto-closed brackets, for the same reason.
  let pending = null;                               // {lineStart, pos} of Enter's indentation
  const enter = (v) => {
    insertNewlineAndIndent(v);
    const pos = v.state.selection.main.head;
    pending = { lineStart: v.state.doc.lineAt(pos).from, pos };
    return true;
  };
  const typed = EditorView.inputHandler.of((v, from, to, text) => {
    const p = pending;
    pending = null;
    if (!p || text !== " " || from !== to || from !== p.pos || from === p.lineStart) return false;
    if (v.state.sliceDoc(p.lineStart, from).trim() !== "") return false;
    v.dispatch({ changes: { from: p.lineStart, to: from, insert: " " },
      selection: { anchor: p.lineStart + 1 }, userEvent: "input.type" });
    return true;
  });
  const view = new EditorView({
    parent,
    state: EditorState.create({
      doc,
      extensions: [
        lineNumbers(),
        highlightActiveLineGutter(),
        highlightActiveLine(),
        minimalSetup,
        bracketMatching(),
        EditorView.lineWrapping,
        python(),
        typed,
        Prec.highest(keymap.of([{ key: "Enter", run: enter }])),
        indentUnit.of("    "),
        keymap.of([indentWithTab]),
        errorLine,
        EditorView.contentAttributes.of({ "aria-label": label, spellcheck: "false" }),
        EditorView.updateListener.of((u) => { if (u.docChanged) onChange(u.state.doc.toString()); }),
      ],
    }),
  });
  return {
    view,
    getText: () => view.state.doc.toString(),
    setText(text) {
      view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } });
    },
    markLine(n) {
      if (n === null || n === undefined || n < 1 || n > view.state.doc.lines) {
        view.dispatch({ effects: setErrorLine.of(null) });
        return;
      }
      const line = view.state.doc.line(n);
      view.dispatch({ effects: setErrorLine.of({ from: line.from, number: n }),
        selection: { anchor: line.from }, scrollIntoView: true });
    },
    setLabel(text) { view.contentDOM.setAttribute("aria-label", text); },
  };
}
