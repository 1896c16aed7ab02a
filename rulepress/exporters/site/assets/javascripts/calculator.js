// The site's calculators (rulepress/exporters/site/calculators.py): this script only
// looks the form's inputs up in the figures the rules worked out at build time (the
// page's JSON block) and shows what it finds. It computes no rule, makes no request,
// and writes text only through textContent, so it works offline and from file://.
(function () {
  "use strict";

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

  function paragraph(text) {
    const element = document.createElement("p");
    element.textContent = text;
    return element;
  }

  const CHANCE_HEADERS = ["Chance", "Exactly"];

  const renderers = {
    cool(form, data) {
      const cool = readWhole(form, "cool");
      const damage = readWhole(form, "damage");
      const error = cool.error || damage.error;
      if (error) return [paragraph(error)];
      return data.rolls.map((roll) => {
        const target = roll.targets[cool.value][damage.value];
        return table(
          roll.name + ": target " + target,
          ["Outcome", ...CHANCE_HEADERS],
          roll.outcomes[String(target)],
        );
      });
    },

    "skill-test"(form, data) {
      const rank = readWhole(form, "rank");
      const bonus = readWhole(form, "bonus");
      const ap = readWhole(form, "ap");
      const error = rank.error || bonus.error || ap.error;
      if (error) return [paragraph(error)];
      const found = data.ranks[rank.value];
      const totals = data.totals[bonus.value];
      const distribution = found.ap.map((diceAp, index) => [
        totals[diceAp],
        ...found.exactly[index],
        ...found.atLeast[index],
      ]);
      const weapons = data.weapons.map((weapon) => {
        const index = weapon.at[ap.value];
        if (index < 0) return [weapon.name, "none (below the table)", "-", "-", "-", "-"];
        const row = weapon.rows[index];
        const move = weapon.move === "Move" ? String(row[3]) : weapon.move + " " + row[3];
        return [weapon.name, row[0], row[1], row[2], move, row[4]];
      });
      const shown = [
        table(
          "Total AP at rank " + rank.value + " with a trait bonus of " + bonus.value,
          ["AP", "Chance of exactly this", "Exactly", "Chance of at least this", "At least, exactly"],
          distribution,
        ),
      ];
      if (weapons.length) {
        shown.push(
          table(
            "Each weapon at " + ap.value + " AP",
            ["Weapon", "Row (AP)", "Damage", "Defense", "Move", "Range"],
            weapons,
          ),
        );
      }
      return shown;
    },
  };

  function yesNo(flag) {
    return flag ? "yes" : "no";
  }

  renderers.cuf = function (form, data) {
    const cuf = readWhole(form, "cuf");
    const willpower = readWhole(form, "willpower");
    const tcs = readWhole(form, "tcs");
    const error = cuf.error || willpower.error || tcs.error;
    if (error) return [paragraph(error)];
    const [index, threshold, failRounds, passRounds, penaltiesLast] =
      data.situations[data.grid[cuf.value][tcs.value]];
    if (index < 0) {
      return [paragraph(tcs.value + " TCs against CUF " + cuf.value + ": no threat state, so no check.")];
    }
    const state = data.states[index];
    const target = state.targets[cuf.value][willpower.value];
    const chance = data.chances[state.chances[cuf.value][willpower.value]];
    const rows = [
      ["Effect", state.failure.text, state.success.text],
      ["Rounds of suppression", failRounds, passRounds],
      ["Skill roll penalty (added to the roll)", state.failure.skill, state.success.skill],
      ["Initiative penalty", state.failure.initiative, state.success.initiative],
      ["BANE", yesNo(state.failure.bane), yesNo(state.success.bane)],
      ["Flee or surrender", yesNo(state.failure.flee), yesNo(state.success.flee)],
      ["Penalties still apply at this TC total", "-", yesNo(penaltiesLast) + " (" + state.penaltiesEnd + ")"],
    ];
    return [
      paragraph(
        tcs.value + " TCs against CUF " + cuf.value + ": " + state.name + " (TCs over " +
          threshold + "). " + state.difficulty + " check: " + target +
          " or less on a d20, passed with a chance of " + chance[0] + " (" + chance[1] + ").",
      ),
      table(state.name + ": the check failed or passed", ["What it brings", "Failed", "Passed"], rows),
    ];
  };

  renderers.t2k4e = function (form, data) {
    const helpers = readWhole(form, "helpers");
    const text = form.elements.modifier.value.trim();
    // the modifier may be negative: look it up by its text, as the table is keyed
    const nets = /^[+-]?[0-9]+$/.test(text) ? data.nets[String(Number(text))] : undefined;
    if (!nets) {
      const label = form.querySelector('label[for="' + form.elements.modifier.id + '"]');
      return [paragraph("Give a whole number for " + label.textContent + ".")];
    }
    if (helpers.error) return [paragraph(helpers.error)];
    const net = nets[helpers.value];
    const pool = data.shifted[form.elements.attribute.value][form.elements.skill.value][String(net)];
    const odds = data.pools[pool][form.elements.reading.value];
    const headers = ["Successes", "Chance", "Exactly", "Chance of at least this", "At least, exactly"];
    return [
      paragraph("Net modifier " + net + ": the dice rolled are " + pool + "."),
      table(pool + " before a push", headers, odds.initial),
      table(pool + " after a push", headers, odds.pushed),
    ];
  };

  function start() {
    const block = document.getElementById("rp-calculator-data");
    if (!block) return;
    const figures = JSON.parse(block.textContent);
    for (const form of document.querySelectorAll("form.rp-calculator")) {
      const name = form.dataset.calculator;
      const render = renderers[name];
      const output = form.querySelector(".rp-calculator-output");
      if (!render || !(name in figures)) continue;
      const update = () => output.replaceChildren(...render(form, figures[name]));
      form.addEventListener("input", update);
      update();
    }
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
