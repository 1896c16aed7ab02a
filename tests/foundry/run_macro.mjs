// Runs a Foundry script macro against small stand-ins for Foundry's Roll and ChatMessage.
// Usage: node run_macro.mjs MACRO.json '{"scope": {...}, "faces": [..]}'
// Each die the macro rolls takes the next face from "faces"; the script's return value and
// the chat messages it created are printed as JSON, with `planted`: whatever code planted
// in the macro by its data set globalThis.planted to (null when none ran).
import {readFileSync} from "node:fs";

const [file, argument] = process.argv.slice(2);
const macro = JSON.parse(readFileSync(file, "utf8"));
const {scope, faces} = JSON.parse(argument);
const queue = [...faces];

class Roll {
  constructor(formula) {
    const match = /^(\d+)d(\d+)$/.exec(formula);
    if (!match) throw new Error(`stand-in Roll cannot read ${formula}`);
    this.formula = formula;
    this.count = Number(match[1]);
    this.sides = Number(match[2]);
  }
  async evaluate() {
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

const AsyncFunction = Object.getPrototypeOf(async function () {}).constructor;
const run = new AsyncFunction("Roll", "ChatMessage", "scope", macro.command);
const result = await run(Roll, ChatMessage, scope);
console.log(JSON.stringify({result, messages: messages.map((m) => ({content: m.content, flags: m.flags, rolls: m.rolls.length})), unusedFaces: queue.length, planted: globalThis.planted ?? null}));
