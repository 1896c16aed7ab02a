// IRIS's calculator renderer (its figures: rulepress/exporters/site/calculators_iris.py),
// registered with the site's calculator script (javascripts/calculator.js), which runs
// first. Like it, this only looks the inputs up in the page's figures and writes text
// through textContent.
(function () {
  "use strict";

  const { register, helpers } = window.rulepress.calculators;
  const { paragraph, readWhole, table } = helpers;

  register("skill-test", function (form, data) {
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
  });
})();
