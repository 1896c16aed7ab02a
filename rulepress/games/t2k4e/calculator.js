// Twilight: 2000 4e's calculator renderer (its figures: rulepress/exporters/site/calculators_t2k4e.py),
// registered with the site's calculator script (javascripts/calculator.js), which runs
// first. Like it, this only looks the inputs up in the page's figures and writes text
// through textContent.
(function () {
  "use strict";

  const { register, helpers } = window.rulepress.calculators;
  const { paragraph, readWhole, table } = helpers;

  register("t2k4e", function (form, data) {
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
  });
})();
