// A deal waiting on the phone, scored before the server has it: the sheet's header adds its
// points to the totals, marked provisional, until the server has recorded it
// (static/js/sheet.js). Belgian whist only, the way the engine scores one deal
// (scoring/engine/games/belgian_whist.py, score_deal): the night's point table comes with the
// page (games/presenters/sheet_points.py), the deal as the form sends it.
//
// A deal the server would refuse (the mort declaring, a solo with two declarers, a bid the
// table lacks …) gets no points here (null): the server says what is wrong when it arrives.
// tests/e2e/test_sheet_outage.py compares this with the engine for every row of a preset.
(function () {
  "use strict";

  var PASS = "pass";
  // How many declarers a side takes; "each" (the misères) takes 1 to the four who play.
  var DECLARERS = { pair: 2, solo: 1 };
  var ACTIVE_PLAYERS = 4;

  function count(text) {
    return /^\d+$/.test(text || "") ? Number(text) : null;
  }

  // The row the deal is scored by, as the form and the engine pick it: a contract's bid when
  // the table has bids for it, else its only row (the misères, a one-bid abondance).
  function rowOf(rules, contract, bidText) {
    var rows = rules.rows.filter(function (row) { return row.contract === contract; });
    var withBid = rows.filter(function (row) { return row.bid !== null; });
    var bid = withBid.length ? count(bidText) : null;
    if (bid === null) return rows.length === 1 ? rows[0] : null;
    return rows.filter(function (row) { return row.bid === bid; })[0] || null;
  }

  // The penalties typed with the deal: the offender pays each other player who plays it.
  function penaltiesOf(params) {
    var found = [];
    for (var index = 0; params.has("penalty_" + index + "_player"); index += 1) {
      var player = params.get("penalty_" + index + "_player") || "";
      var points = params.get("penalty_" + index + "_points") || "";
      if (!player && !points) continue;
      if (!player || count(points) === null) return null;
      found.push({ seat: Number(player), points: count(points) });
    }
    return found;
  }

  // Each seat's points (seat 1 first) for the deal in ``params`` (a URLSearchParams or the
  // form's body as text), dealt by seat ``dealer`` (from 1) at a table of ``seatCount``; null
  // when the engine would refuse it or the game is not Belgian whist.
  function score(rules, params, seatCount, dealer) {
    if (!rules || rules.game !== "belgian_whist" || (seatCount !== 4 && seatCount !== 5)) return null;
    if (typeof params === "string") params = new URLSearchParams(params);
    var points = [];
    var active = [];
    for (var seat = 1; seat <= seatCount; seat += 1) {
      points.push(0);
      // At a table of five the dealer sits the deal out: the mort.
      if (!(seatCount === 5 && seat === dealer)) active.push(seat);
    }
    var contract = params.get("contract") || "";
    if (!contract) return null;
    if (contract !== PASS) {
      var row = rowOf(rules, contract, params.get("bid"));
      if (!row) return null;
      var declarers = params.getAll("declarers").map(Number);
      var wanted = DECLARERS[row.side];
      if (row.side === "each" ? declarers.length < 1 || declarers.length > ACTIVE_PLAYERS : declarers.length !== wanted) return null;
      for (var i = 0; i < declarers.length; i += 1) {
        if (active.indexOf(declarers[i]) === -1 || declarers.indexOf(declarers[i]) !== i) return null;
      }
      if (row.side === "each") {
        // "Chacun pour soi": each declarer plays alone against every other player.
        var tricks = declarers.map(function (declarer) { return count(params.get("tricks_" + declarer)); });
        var total = 0;
        for (var j = 0; j < tricks.length; j += 1) {
          if (tricks[j] === null || tricks[j] > row.deal_tricks) return null;
          total += tricks[j];
        }
        // scoring-rules.md §1.1: the tricks of every declarer fit in the deal's, and when
        // every player who plays declares, they are exactly the deal's.
        if (total > row.deal_tricks || (declarers.length === active.length && total !== row.deal_tricks)) return null;
        declarers.forEach(function (declarer, index) {
          active.forEach(function (player) {
            points[player - 1] += player === declarer ? row.declarer[tricks[index]] : row.defender[tricks[index]];
          });
        });
      } else {
        var taken = count(params.get("tricks"));
        if (taken === null || taken > row.deal_tricks) return null;
        active.forEach(function (player) {
          points[player - 1] = declarers.indexOf(player) !== -1 ? row.declarer[taken] : row.defender[taken];
        });
      }
    }
    var penalties = penaltiesOf(params);
    if (!penalties) return null;
    for (var k = 0; k < penalties.length; k += 1) {
      var penalty = penalties[k];
      if (active.indexOf(penalty.seat) === -1) return null;
      active.forEach(function (player) {
        points[player - 1] += player === penalty.seat ? -penalty.points * (active.length - 1) : penalty.points;
      });
    }
    return points;
  }

  window.sheetPoints = { score: score };
})();
