// Cool's calculator renderer (its figures: rulepress/exporters/site/calculators_cool.py),
// registered with the site's calculator script (javascripts/calculator.js), which runs
// first. Like it, this only looks the inputs up in the page's figures and writes text
// through textContent.
(function () {
  "use strict";

  const { register, helpers } = window.rulepress.calculators;
  const { CHANCE_HEADERS, paragraph, readWhole, table } = helpers;

  register("cool", function (form, data) {
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
  });
})();
