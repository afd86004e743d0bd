// The page's words for cesarz: to be filled by that game's engineer (see core.js for the key
// families: name, rules, phase.<phase>, event.<type>, action.<type>, pile.<id>, summary.<key> …).
// Missing keys fall back to English, then to the key itself.
export default {
  en: {
  },
  pl: {
  },
};
