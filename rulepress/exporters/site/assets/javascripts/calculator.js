// The site's calculators (rulepress/exporters/site/calculators.py): the scripts only look
// the form's inputs up in the figures the rules worked out at build time (the page's JSON
// block) and show what they find. They compute no rule, make no request, and write text
// only through textContent, so they work offline and from file://.
//
// This script runs first and defines the API each game's script (Game.scripts, loaded
// after it) uses:
//   window.rulepress.calculators.register(name, render)
//     name: the calculator's id (`Calculator.id`, the form's data-calculator);
//     render(form, figures): the elements to show for the form's current inputs, where
//     figures is the calculator's `data`. Called on every input; a name registered twice
//     is an error.
//   window.rulepress.calculators.helpers: readWhole(form, name) -> {value} or {error},
//     table(caption, headers, rows), paragraph(text), yesNo(flag), CHANCE_HEADERS.
// The forms start once the page has loaded (after every script), or at once for a
// calculator registered later.
(function () {
  "use strict";

  // @helper readWhole(form, name): the input's whole number within its min and max, as
  // {value}, or {error}: a sentence naming the input's label.
  function readWhole(form, name) {
    const input = form.elements[name];
    const text = input.value.trim();
    const low = Number(input.min);
    const high = Number(input.max);
    if (!/^[0-9]+$/.test(text) || Number(text) < low || Number(text) > high) {
      const label = form.querySelector('label[for="' + input.id + '"]');
      return { error: "Give a whole number for " + label.textContent + "." };
    }
    return { value: Number(text) };
  }

  // @helper table(caption, headers, rows): a table, each row's first cell its header.
  function table(caption, headers, rows) {
    const element = document.createElement("table");
    element.createCaption().textContent = caption;
    const head = element.createTHead().insertRow();
    for (const header of headers) {
      const cell = document.createElement("th");
      cell.scope = "col";
      cell.textContent = header;
      head.appendChild(cell);
    }
    const body = element.createTBody();
    for (const row of rows) {
      const line = body.insertRow();
      row.forEach((value, index) => {
        const cell = document.createElement(index === 0 ? "th" : "td");
        if (index === 0) cell.scope = "row";
        cell.textContent = String(value);
        line.appendChild(cell);
      });
    }
    const wrapper = document.createElement("div");
    wrapper.className = "md-typeset__table";
    wrapper.appendChild(element);
    return wrapper;
  }

  // @helper paragraph(text): a paragraph of text.
  function paragraph(text) {
    const element = document.createElement("p");
    element.textContent = text;
    return element;
  }

  // @helper yesNo(flag): "yes" or "no".
  function yesNo(flag) {
    return flag ? "yes" : "no";
  }

  const renderers = new Map();
  let figures = null; // the page's figures, once it has loaded (null before, or none)

  function bind(name) {
    if (!figures || !renderers.has(name) || !Object.hasOwn(figures, name)) return;
    const render = renderers.get(name);
    for (const form of document.querySelectorAll("form.rp-calculator")) {
      if (form.dataset.calculator !== name) continue;
      const output = form.querySelector(".rp-calculator-output");
      const update = () => output.replaceChildren(...render(form, figures[name]));
      form.addEventListener("input", update);
      update();
    }
  }

  function register(name, render) {
    if (typeof render !== "function") throw new TypeError("calculator " + name + ": render must be a function");
    if (renderers.has(name)) throw new Error("calculator " + name + " is registered twice");
    renderers.set(name, render);
    bind(name);
  }

  function start() {
    const block = document.getElementById("rp-calculator-data");
    if (!block) return;
    figures = JSON.parse(block.textContent);
    for (const name of renderers.keys()) bind(name);
  }

  window.rulepress = window.rulepress || {};
  window.rulepress.calculators = Object.freeze({
    register,
    helpers: Object.freeze({ readWhole, table, paragraph, yesNo, CHANCE_HEADERS: ["Chance", "Exactly"] }),
  });

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
