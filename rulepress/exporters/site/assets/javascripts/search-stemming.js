// rulepress's search stemming (rulepress/exporters/site/search_stemming.py), MIT licence.
// It is appended, in a translation's site, to the theme's own lunr-languages file of the
// site's language (assets/javascripts/lunr/min/lunr.<lang>.min.js, whose header above
// keeps that file's own licence and authors), and runs in the search worker once the
// language's stemmer is defined. `rulepressStemming(lunr, "de")` is called at the end.
//
// Why: Material's search as you type appends `*` to every word typed (`charakter*`), and
// lunr runs no pipeline, so no stemmer, on a term with a wildcard: with only the stems in
// the index, `charakter*` would never match the stem `charakt`. So:
//  1. The index holds each word both as written (lowercased, trimmed) and as its stem:
//     the language's stemmer is replaced by one that returns both tokens. Prefix search
//     as you type finds whole and partial words as before.
//  2. Each optional trailing-wildcard term of a query (what Material makes of each word
//     typed) gets a second, optional term: the same word without the wildcard, through
//     the search pipeline (so stemmed): an inflected form finds the word's other forms
//     (German `Schüsse` finds a page that says only `Schuss`). A result found so carries
//     the typed word among its matched terms (with no positions), so Material neither
//     lists the word as missing from it nor withholds the boost of a matched word; the
//     highlighting marks the forms the page holds.
// Nothing here makes a request or touches the page: it only changes lunr in the worker.
function rulepressStemming(lunr, language) {
  "use strict";
  var plugin = lunr && lunr[language];
  if (!plugin || typeof plugin.stemmer !== "function" || !lunr.Index) return;
  var stem = plugin.stemmer;

  // 1. The word as written and its stem, at index time and at search time. The language's
  // plugin (lunr.<lang>, called by Material when it builds the index) adds `stemmer` by
  // this name, and Material removes pipeline functions by this name: both get this one.
  function writtenAndStemmed(token, i, tokens) {
    var written = token.toString();
    if (written.indexOf("*") !== -1) return token; // a wildcard term: as it is
    var stemmed = stem(token.clone(), i, tokens);
    if (!stemmed || stemmed.toString() === written) return token;
    return [token, stemmed];
  }
  lunr.Pipeline.registerFunction(writtenAndStemmed, "rulepress-stemmer-" + language);
  plugin.stemmer = writtenAndStemmed;

  // A word found both as written and as its stem has the same position under two terms:
  // each position is kept once (Material's highlighting marks a position twice over, and
  // garbles the text, when it is listed twice). The match data's objects are the query's
  // or the index's own: they are replaced, never changed.
  function distinctPositions(metadata) {
    var seen = Object.create(null);
    var terms = Object.keys(metadata);
    for (var t = 0; t < terms.length; t++) {
      var fields = Object.keys(metadata[terms[t]]);
      for (var f = 0; f < fields.length; f++) {
        var data = metadata[terms[t]][fields[f]];
        if (!data || !Array.isArray(data.position)) continue;
        var marked = seen[fields[f]] || (seen[fields[f]] = Object.create(null));
        var kept = data.position.filter(function (at) {
          var first = !marked[at];
          marked[at] = true;
          return first;
        });
        if (kept.length === data.position.length) continue;
        var copy = Object.create(null);
        for (var key in data) copy[key] = data[key];
        copy.position = kept;
        metadata[terms[t]][fields[f]] = copy;
      }
    }
  }

  // 2. Beside each word typed (an optional clause `word*` that skips the pipeline, as
  // lunr's query parser makes of Material's query), the word itself, stemmed. Each word
  // of the query that is stemmed (those, and a required `+word`, which lunr stems
  // itself) is remembered with its forms, to name it on the results that hold a form.
  var TRAILING = /^[^*]+\*$/;
  var presence = lunr.Query.presence;
  var query = lunr.Index.prototype.query;
  lunr.Index.prototype.query = function (fn) {
    var index = this;
    var stemmed = [];
    var results = query.call(this, function (builder) {
      fn.call(builder, builder);
      var typed = builder.clauses.slice();
      for (var c = 0; c < typed.length; c++) {
        var clause = typed[c];
        var word = clause.term;
        if (clause.presence === presence.PROHIBITED || clause.editDistance) continue;
        if (clause.usePipeline === false) {
          if (clause.presence !== presence.OPTIONAL || !TRAILING.test(word)) continue;
          word = word.slice(0, -1);
          builder.clause({
            term: word,
            fields: clause.fields,
            boost: clause.boost,
            usePipeline: true,
            presence: presence.OPTIONAL
          });
        } else if (word.indexOf("*") !== -1) {
          continue; // Material's suggestions: left as they are
        }
        var forms = index.pipeline.runString(word, { fields: clause.fields });
        stemmed.push({ word: word, forms: forms });
      }
    });
    for (var r = 0; r < results.length; r++) {
      var metadata = results[r].matchData.metadata;
      distinctPositions(metadata);
      for (var s = 0; s < stemmed.length; s++) {
        var entry = stemmed[s];
        if (Object.prototype.hasOwnProperty.call(metadata, entry.word)) continue;
        for (var f = 0; f < entry.forms.length; f++) {
          if (Object.prototype.hasOwnProperty.call(metadata, entry.forms[f])) {
            metadata[entry.word] = {}; // a form of the word: the word is no missing one
            break;
          }
        }
      }
    }
    return results;
  };
}
