// The old name of saved-games.js, kept only because web/worker.js still imports it from here
// (the worker is being reworked on another branch): point that import at ./saved-games.js and
// delete this file.
export * from "./saved-games.js";
