// Coolness Under Fire's calculator renderer (its figures: rulepress/exporters/site/calculators_cuf.py),
// registered with the site's calculator script (javascripts/calculator.js), which runs
// first. Like it, this only looks the inputs up in the page's figures and writes text
// through textContent.
(function () {
  "use strict";

  const { register, helpers } = window.rulepress.calculators;
  const { paragraph, readWhole, table, yesNo } = helpers;

  register("cuf", function (form, data) {
    const cuf = readWhole(form, "cuf");
    const willpower = readWhole(form, "willpower");
    const tcs = readWhole(form, "tcs");
    const error = cuf.error || willpower.error || tcs.error;
    if (error) return [paragraph(error)];
    const [index, threshold, failRounds, passRounds, penaltiesLast] =
      data.situations[data.grid[cuf.value][tcs.value]];
    if (index < 0) {
      return [paragraph(tcs.value + " TCs against CUF " + cuf.value + ": " + data.calm + ": no threat state, so no check.")];
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
  });
})();
