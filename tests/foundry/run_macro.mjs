// Runs a Foundry script macro against small stand-ins for Foundry's Roll, ChatMessage,
// dialogs (v13 DialogV2.prompt, v12 Dialog.prompt), the user's flags, the selected token's
// actor and the world's RollTables.
// Usage: node run_macro.mjs MACRO.json '{"scope": {...}, "faces": [..], ...}'
//   scope: the macro's arguments ({} as from the hotbar);
//   faces: each die the macro rolls takes the next one;
//   dialog: the values the user picks in a dialog (others keep their prefilled values);
//           null cancels it;
//   actor: the selected token's actor's `system` ({attributes: {...}});
//   flags: the user's flags before the run ({scope: {key: value}});
//   tables: names of world RollTables; drawing one records the roll's total;
//   i18n: Foundry's game.i18n: {lang, files: [lang file, ...]}, the first the language's,
//           the others its fallback (Foundry's English); without it, game.i18n is absent;
//   clickedIn: the dataset of the element holding the clicked link (`{rulepressItem: id}`):
//           the macro gets `scope.event` as Foundry's Macro#_onClickDocumentLink passes it.
// Printed as JSON: the script's return value, the chat messages, the dialogs shown
// (which API, title, content), the draws, the user's flags after, unused faces, and
// `planted`: whatever code planted in the macro by its data set globalThis.planted to.
import {readFileSync} from "node:fs";

const [file, argument] = process.argv.slice(2);
const macro = JSON.parse(readFileSync(file, "utf8"));
const options = JSON.parse(argument);
const {scope, faces = []} = options;
const queue = [...faces];

class Roll {
  constructor(formula) {
    this.formula = formula;
    const constant = /^\d+$/.exec(formula);
    const match = /^(\d+)d(\d+)$/.exec(formula);
    if (!constant && !match) throw new Error(`stand-in Roll cannot read ${formula}`);
    this.constant = constant ? Number(formula) : null;
    this.count = match ? Number(match[1]) : 0;
    this.sides = match ? Number(match[2]) : 0;
  }
  async evaluate() {
    if (this.constant !== null) {
      this.dice = [];
      this.total = this.constant;
      return this;
    }
    const results = [];
    for (let i = 0; i < this.count; i++) {
      if (!queue.length) throw new Error(`no face left for ${this.formula}`);
      const face = queue.shift();
      if (face < 1 || face > this.sides) throw new Error(`a d${this.sides} cannot show ${face}`);
      results.push({result: face, active: true});
    }
    this.dice = [{faces: this.sides, results}];
    this.total = results.reduce((sum, r) => sum + r.result, 0);
    this._evaluated = true;
    return this;
  }
}

const messages = [];
const ChatMessage = {
  getSpeaker: () => ({alias: "Test"}),
  create: async (data) => { messages.push(data); return data; },
};

// A form whose fields hold what the dialog's HTML prefilled, or what the user chose.
const prefilled = (content, name) => {
  const input = new RegExp(`<input ([^>]*)name="${name}"([^>]*)>`).exec(content);
  if (input) {
    const attributes = input[1] + input[2];
    const value = /value="([^"]*)"/.exec(attributes);
    return {value: value ? value[1].replace(/&#39;/g, "'").replace(/&quot;/g, '"').replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&") : "", checked: / checked/.test(attributes)};
  }
  const select = new RegExp(`<select [^>]*name="${name}"[^>]*>(.*?)</select>`).exec(content);
  if (select) {
    const chosen = /<option value="([^"]*)" selected>/.exec(select[1]) ?? /<option value="([^"]*)"/.exec(select[1]);
    return {value: chosen ? chosen[1] : ""};
  }
  return undefined;
};
const dialogs = [];
const answer = (api, title, content, button) => {
  dialogs.push({api, title, content, button});
  if (options.dialog === null) return null;
  const picked = options.dialog ?? {};
  const elements = new Proxy({}, {get: (_, name) => {
    if (typeof name !== "string") return undefined;
    const field = prefilled(content, name);
    if (!field || !(name in picked)) return field;
    const value = picked[name];
    return typeof value === "boolean" ? {value: "on", checked: value} : {value: Array.isArray(value) ? value.join(", ") : String(value ?? "")};
  }});
  return {elements};
};
globalThis.foundry = {applications: {api: {DialogV2: {
  prompt: async (config) => {
    const form = answer("DialogV2", config.window.title, config.content, config.ok.label);
    return form ? config.ok.callback({}, {form}, {}) : null;
  },
}}}};
globalThis.Dialog = {
  prompt: async (config) => {
    const form = answer("Dialog", config.title, config.content, config.label);
    return form ? config.callback([{querySelector: () => form}]) : null;
  },
};
const flags = structuredClone(options.flags ?? {});
const draws = [];
globalThis.game = {
  user: {
    getFlag: (where, key) => flags[where]?.[key],
    setFlag: async (where, key, value) => { (flags[where] ??= {})[key] = value; },
    character: null,
  },
  tables: {getName: (name) => ((options.tables ?? []).includes(name)
    ? {name, draw: async ({roll}) => { draws.push({table: name, total: roll.total}); }}
    : undefined)},
  packs: {get: () => undefined},
};
// Foundry's Localization: a key is a path into the nested translations, the language's
// first, then the fallback's; format fills each {name} from its data.
if (options.i18n) {
  const [translations = {}, ...fallbacks] = options.i18n.files.map((path) => JSON.parse(readFileSync(path, "utf8")));
  const at = (tree, key) => key.split(".").reduce((node, part) => (node && typeof node === "object" ? node[part] : undefined), tree);
  const found = (key) => [translations, ...fallbacks].map((tree) => at(tree, key)).find((v) => typeof v === "string");
  globalThis.game.i18n = {
    lang: options.i18n.lang,
    has: (key) => found(key) !== undefined,
    localize: (key) => found(key) ?? key,
    format: (key, data = {}) => (found(key) ?? key).replace(/{[^}]+}/g, (k) => data[k.slice(1, -1)]),
  };
}
globalThis.canvas = {tokens: {controlled: options.actor ? [{actor: {system: options.actor}}] : []}};

// A click on a link inside an element with these data attributes (an Item's description).
const scopeOf = (given) => {
  if (!options.clickedIn) return given;
  const holder = {dataset: options.clickedIn};
  const target = {closest: (selector) => (selector === "[data-rulepress-item]" ? holder : null)};
  return {...given, event: {target}};
};

const AsyncFunction = Object.getPrototypeOf(async function () {}).constructor;
const run = new AsyncFunction("Roll", "ChatMessage", "scope", macro.command);
const result = await run(Roll, ChatMessage, scopeOf(scope));
console.log(JSON.stringify({
  result,
  messages: messages.map((m) => ({content: m.content, flags: m.flags, rolls: m.rolls.length})),
  dialogs, draws, flags, unusedFaces: queue.length, planted: globalThis.planted ?? null,
}));
