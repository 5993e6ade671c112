// The score sheet at the table, on bad Wi-Fi: no deal is lost, nothing is recorded twice,
// every failure is said in words with what to do.
//
// Each deal the scorer saves goes into a queue kept on the phone (localStorage, per poule)
// with a key of the phone's making and the number of deals the sheet will show when its turn
// comes; the queue is sent in order, one deal at a time. A deal refused (or met by a 409)
// stays at the head of the queue, in the form: the scorer mends it and saves it, and only then
// do the deals behind it leave (deal order sets the dealer and the mort). Every answer is
// matched to its deal by key, never by position (two tabs share the queue). The server records a key once (a deal sent again after a lost
// answer is answered as the first time) and answers 409 when the sheet changed meanwhile
// (another phone). Offline, the deals wait ("n donnes en attente") and leave when the
// connection returns; meanwhile they count in the header: the deal count moves on, and their
// points (Belgian whist: static/js/sheet-points.js) are added to the totals, marked "≈" as
// provisional, until the server has them. A deal sent at once and refused at once never
// waited: it comes back in the form with the server's words, and the queue says nothing of
// it. The sheet answers with its new state (X-Sheet-Result: recorded,
// replayed, refused, conflict, undone), swapped in place.
//
// A shared phone: each waiting deal carries the login stamp of the page it was typed on (the
// login's, data-viewer) and is sent with it. A page made for another login neither shows nor
// sends it: it is set aside, and comes back when its scorer signs in again (logging out
// clears it: static/js/site.js). The server refuses a deal sent under another login than its
// own (X-Sheet-Result: other-login, 403); the page then shows the sheet of the login the
// phone now has, the deal set aside.
//
// Without this file the form posts and the page comes back: everything still works, a deal at
// a time. The sheet has data-own-errors: the site's generic htmx error handler leaves it to us.
(function () {
  "use strict";

  var TEXT = {};
  // The night's point table, for the waiting deals' provisional points (null: this game's
  // waiting deals are counted without points).
  var POINTS = null;
  var sending = false;
  // Set while the script itself refreshes the form (the mort moved on): that is no choice of
  // the scorer's, and must not be kept over the deal he typed (a reload would lose it).
  var quiet = false;
  var paused = false;
  var retryTimer = null;
  // The key of the refused deal this page's form holds (it stays at the head of the queue).
  var editingKey = null;
  // The key of the deal whose failure paused the queue (another tab may send it meanwhile).
  var pausedKey = null;
  // A save that hangs (a Wi-Fi that takes the request and never answers) is given up after
  // this long and treated as offline: the deal's key makes the next try harmless.
  var SAVE_TIMEOUT = 15000;

  function say(key, values) {
    var text = TEXT[key] || key;
    Object.keys(values || {}).forEach(function (name) {
      text = text.split("{" + name + "}").join(String(values[name]));
    });
    return text;
  }

  function sheet() { return document.getElementById("sheet"); }
  function sheetForm() { return document.querySelector("form[data-sheet-form]"); }

  function storage() {
    try { return window.localStorage; } catch (e) { return null; }
  }

  // Who this page was made for (the login's stamp); the sheet swapped in after an answer
  // says who the phone has now.
  function viewer() { return sheet() ? sheet().dataset.viewer || "" : ""; }

  // A deal queued by an older page names nobody: it is the current login's, as it was.
  function mine(entry) { return !entry.viewer || entry.viewer === viewer(); }

  function queueKey() { return "sheet-queue-" + (sheet() ? sheet().dataset.poule : ""); }
  function draftKey() { return "sheet-draft-" + (sheet() ? sheet().dataset.poule : ""); }

  // The deal being typed, kept on the phone: a phone that sleeps or reloads the page finds
  // the choices where it left them.
  function keepDraft() {
    var store = storage();
    if (!store) return;
    var draft = { viewer: viewer(), fields: draftOf(sheetForm()) };
    try { store.setItem(draftKey(), JSON.stringify(draft)); } catch (e) { /* full */ }
  }

  function forgetDraft() {
    var store = storage();
    if (store) store.removeItem(draftKey());
  }

  // Another login's half-typed deal is not brought back.
  function savedDraft() {
    var store = storage();
    var draft;
    try { draft = store ? JSON.parse(store.getItem(draftKey()) || "null") : null; } catch (e) { return []; }
    if (Array.isArray(draft)) return draft;
    return draft && draft.viewer === viewer() && Array.isArray(draft.fields) ? draft.fields : [];
  }

  // Every login's waiting deals for this table, as kept on the phone.
  function readAll() {
    var store = storage();
    if (!store) return memoryQueue;
    try { return JSON.parse(store.getItem(queueKey()) || "[]"); } catch (e) { return []; }
  }

  // This login's: the others' are set aside, neither shown nor sent.
  function readQueue() { return readAll().filter(mine); }

  // Without localStorage (private mode), the queue lives as long as the page.
  var memoryQueue = [];

  // This login's queue written back; the deals set aside for other logins stay as they are.
  function writeQueue(queue) {
    var store = storage();
    var all = readAll().filter(function (entry) { return !mine(entry); }).concat(queue);
    memoryQueue = all;
    if (!store) return;
    try {
      if (all.length) store.setItem(queueKey(), JSON.stringify(all));
      else store.removeItem(queueKey());
    } catch (e) { /* storage full: the queue still lives in this page */ }
  }

  // A version 4 UUID; crypto.randomUUID needs HTTPS, a club's Wi-Fi may serve plain HTTP.
  function newKey() {
    var bytes = new Uint8Array(16);
    window.crypto.getRandomValues(bytes);
    bytes[6] = (bytes[6] & 15) | 64;
    bytes[8] = (bytes[8] & 63) | 128;
    var hex = Array.prototype.map.call(bytes, function (b) { return (b + 256).toString(16).slice(1); }).join("");
    return hex.slice(0, 8) + "-" + hex.slice(8, 12) + "-" + hex.slice(12, 16) + "-" + hex.slice(16, 20) + "-" + hex.slice(20);
  }

  // The token as it is now, read from the cookie when sending: signing in again in another
  // tab changes it, and the copy in this page's form would be refused.
  function csrfToken() {
    var found = document.cookie.split(";").map(function (part) { return part.trim(); })
      .filter(function (part) { return part.indexOf("csrftoken=") === 0; })[0];
    if (found) return decodeURIComponent(found.slice("csrftoken=".length));
    var field = document.querySelector("input[name=csrfmiddlewaretoken]");
    return field ? field.value : "";
  }

  // A save refused by the CSRF check (the site's page says so with data-csrf-failure), not
  // by a closed night.
  function csrfRefused(response, text) {
    return response.status === 403 && text.indexOf("data-csrf-failure") !== -1;
  }

  // The login page where a sheet was expected: the session expired.
  function loginPage(response, text) {
    return (response.redirected && /\/login\//.test(response.url)) ||
      (response.ok && text.indexOf('id="sheet"') === -1);
  }

  function fetchWithTimeout(url, options) {
    if (!window.AbortController) return fetch(url, options);
    var controller = new AbortController();
    var timer = window.setTimeout(function () { controller.abort(); }, SAVE_TIMEOUT);
    options.signal = controller.signal;
    return fetch(url, options).then(function (response) {
      return response.text().then(function (text) {
        window.clearTimeout(timer);
        return { response: response, text: text };
      });
    }, function (error) {
      window.clearTimeout(timer);
      throw error;
    });
  }

  // -- what the scorer sees

  function showQueue() {
    showDealer();
    var scored = showProvisional();
    var badge = sheet() && sheet().querySelector("[data-queue]");
    if (!badge) return;
    var queue = readQueue();
    if (!queue.length) {
      badge.hidden = true;
      badge.textContent = "";
      return;
    }
    // A deal the server refused is no waiting deal: it is back in the form, to correct.
    var parts = [];
    var waiting = queue;
    if (queue[0].refused) {
      parts.push(say("refused_fix") + (queue[0].label ? " : " + queue[0].label : ""));
      waiting = queue.slice(1);
    }
    if (waiting.length) {
      var labels = waiting.map(function (entry) { return entry.label; }).filter(Boolean).join(", ");
      parts.push(say(waiting.length === 1 ? "waiting_one" : "waiting_many", { n: waiting.length }) +
        (labels ? " : " + labels : ""));
      // Behind a refused deal none is counted yet: their dealers wait for it.
      var unscored = waiting.length - scored;
      if (scored) parts.push(say("provisional_note"));
      if (unscored) parts.push(scored ? say("some_not_in_totals", { n: unscored }) : say("not_in_totals"));
    }
    badge.hidden = false;
    badge.classList.toggle("refused", Boolean(queue[0].refused));
    badge.textContent = parts.join(" · ") +
      (navigator.onLine === false ? " — " + say("offline_short") : "");
  }

  // -- who deals the deal in the form, while deals wait on the phone

  function contractOf(params) {
    var found = "";
    params.forEach(function (value, name) { if (/contract$/.test(name)) found = value; });
    return found;
  }

  // The deals waiting on the phone, each with the dealer the engine will give it: the sheet's
  // next dealer, moved one seat on by each deal that counts (a pass leaves him dealing again),
  // or the dealer a deal names. ``next`` deals the deal in the form. A refused deal at the head
  // of the queue is the one in the form: nothing waits before it.
  function waitingDeals() {
    var root = sheet();
    var seats = Number(root.dataset.seatCount);
    var uncounted = (root.dataset.uncounted || "").split(" ").filter(Boolean);
    var dealer = root.dataset.dealer ? Number(root.dataset.dealer) : null;
    var queue = readQueue();
    var deals = [];
    if (queue.length && queue[0].refused) return { deals: deals, next: dealer };
    queue.forEach(function (entry) {
      var params = new URLSearchParams(entry.body);
      if (dealer !== null && params.get("dealer")) dealer = Number(params.get("dealer"));
      var counts = uncounted.indexOf(contractOf(params)) === -1;
      deals.push({ params: params, dealer: dealer, counts: counts });
      if (dealer !== null && counts) dealer = dealer % seats + 1;
    });
    return { deals: deals, next: dealer };
  }

  function waitingCounted() {
    return waitingDeals().deals.filter(function (deal) { return deal.counts; }).length;
  }

  // The header with the waiting deals in it: the deal count moves on, and their points
  // (when the page can score them) are added to the totals, each marked "≈" and named
  // provisional for screen readers, until the server's answer brings the recorded totals.
  // Returns how many waiting deals are in the totals.
  function showProvisional() {
    var root = sheet();
    var scored = 0;
    if (!root) return scored;
    var seats = Number(root.dataset.seatCount);
    var deals = waitingDeals().deals;
    var added = [];
    deals.forEach(function (deal) {
      var points = POINTS && window.sheetPoints && deal.dealer !== null ?
        window.sheetPoints.score(POINTS, deal.params, seats, deal.dealer) : null;
      if (!points) return;
      scored += 1;
      points.forEach(function (value, index) { added[index] = (added[index] || 0) + value; });
    });
    var words = scored ? say(scored === 1 ? "provisional_one" : "provisional_many", { n: scored }) : "";
    root.querySelectorAll("[data-totals] [data-total]").forEach(function (total, index) {
      var recorded = Number(total.dataset.total);
      total.classList.toggle("provisional", Boolean(scored));
      total.textContent = scored ? "≈" + (recorded + (added[index] || 0)) : total.dataset.total;
      if (words) total.title = words;
      else total.removeAttribute("title");
    });
    var hidden = root.querySelector("[data-provisional-words]");
    if (hidden) hidden.textContent = words ? " (" + words + ")" : "";
    var count = root.querySelector("[data-deal-count]");
    var counted = deals.filter(function (deal) { return deal.counts; }).length;
    if (count && count.dataset.expected) {
      count.textContent = (Number(count.dataset.counted) + counted) + "/" + count.dataset.expected;
      count.classList.toggle("provisional", counted > 0);
      if (counted) count.title = say(counted === 1 ? "waiting_one" : "waiting_many", { n: counted });
      else count.removeAttribute("title");
    }
    return scored;
  }

  function showDealer() {
    var root = sheet();
    var form = sheetForm();
    if (!root || !form) return;
    var title = form.querySelector("[data-deal-title]");
    if (title && title.dataset.template && root.dataset.nextNumber) {
      title.textContent = title.dataset.template.split("{n}").join(String(Number(root.dataset.nextNumber) + waitingCounted()));
    }
    var dealer = waitingDeals().next;
    if (dealer === null) return;
    var names = root.querySelectorAll(".grid-names .seat");
    var shown = root.querySelector("[data-next-dealer]");
    if (shown && names[dealer - 1]) shown.textContent = names[dealer - 1].getAttribute("title");
    var mort = Number(root.dataset.mortAt) === Number(root.dataset.seatCount) ? String(dealer) : "";
    if ((form.dataset.mort || "") !== mort) {
      if (mort) form.dataset.mort = mort;
      else delete form.dataset.mort;
      if (window.dealformRefresh) {
        quiet = true;
        try { window.dealformRefresh(form); } finally { quiet = false; }
      }
    }
  }

  // A message that just appeared is brought into view under the sticky header (the scorer is
  // often scrolled down to the save button, which puts the message above the screen or under
  // the header). Said again (the queue retries every 10 s), it stays where it is: the page
  // does not jump while the scorer types.
  function reveal(box) {
    var bar = sheet().querySelector(".sheet-bar");
    var under = bar ? bar.getBoundingClientRect().bottom : 0;
    var place = box.getBoundingClientRect();
    if (place.top < under || place.bottom > window.innerHeight) {
      window.scrollBy(0, place.top - under - 8);
    }
  }

  function showAlert(message, actions) {
    var box = sheet() && sheet().querySelector("[data-alert]");
    if (!box) return;
    var fresh = Boolean(message) && (box.hidden || box.dataset.message !== message);
    box.dataset.message = message;
    box.textContent = message;
    box.hidden = !message;
    if (actions && actions.length) {
      var row = document.createElement("div");
      row.className = "actions";
      actions.forEach(function (action) {
        var button = document.createElement("button");
        button.type = "button";
        button.textContent = action.label;
        button.addEventListener("click", action.run);
        row.appendChild(button);
      });
      box.appendChild(row);
    }
    if (fresh) reveal(box);
  }

  function busy(on) {
    var root = sheet();
    if (!root) return;
    if (on) root.setAttribute("aria-busy", "true");
    else root.removeAttribute("aria-busy");
    var save = root.querySelector("[data-save]");
    if (save) {
      if (!save.dataset.idle) save.dataset.idle = save.textContent;
      save.textContent = on ? say("saving") : save.dataset.idle;
    }
  }

  // -- the form's state, kept across a swap when the scorer is already typing the next deal

  // The form's fields that are no choice of the scorer's: each deal gets its own when sent.
  var NOT_TYPED = ["csrfmiddlewaretoken", "client_key", "seen", "viewer"];

  function draftOf(form) {
    var pairs = [];
    if (!form) return pairs;
    new FormData(form).forEach(function (value, name) {
      if (NOT_TYPED.indexOf(name) === -1 && value !== "") pairs.push([name, value]);
    });
    return pairs;
  }

  function restoreDraft(form, pairs) {
    if (!form || !pairs.length) return;
    pairs.forEach(function (pair) {
      form.querySelectorAll('[name="' + pair[0] + '"]').forEach(function (field) {
        if (field.type === "radio" || field.type === "checkbox") {
          if (field.value === pair[1]) field.checked = true;
        } else if (field.type !== "hidden" || pair[0] === "dealer") {
          field.value = pair[1];
        }
      });
    });
    if (window.dealformRefresh) window.dealformRefresh(form);
  }

  function swap(html, keepDraft) {
    var old = sheet();
    if (!old) return;
    var draft = keepDraft ? draftOf(sheetForm()) : [];
    var holder = document.createElement("template");
    holder.innerHTML = html.trim();
    var fresh = holder.content.querySelector("#sheet");
    if (!fresh) return;
    old.replaceWith(fresh);
    fresh.dispatchEvent(new CustomEvent("sheet:swapped", { bubbles: true }));
    setup();
    restoreDraft(sheetForm(), draft);
    showQueue();
  }

  // -- sending

  function label(form) {
    var pressed = form.querySelector(".calls button[aria-pressed=true]");
    var tricks = form.querySelector(".tricks button[aria-pressed=true]");
    if (!pressed) return "";
    return pressed.textContent + (tricks ? " " + tricks.textContent : "");
  }

  function bodyOf(form) {
    var body = new URLSearchParams();
    new FormData(form).forEach(function (value, name) {
      if (NOT_TYPED.indexOf(name) === -1) body.append(name, value);
    });
    return body.toString();
  }

  // Each waiting deal is sent saying how many deals the sheet will show when its turn comes:
  // the sheet as the server last sent it, and the deals before it in the queue.
  function renumber(queue) {
    var root = sheet();
    var base = Number(root ? root.dataset.deals : 0);
    queue.forEach(function (entry, index) { entry.seen = base + index; });
    return queue;
  }

  function enqueue(form) {
    var queue = readQueue();
    var where = document.querySelector(".sheet-title");
    var entry = {
      key: newKey(),
      body: bodyOf(form),
      label: label(form),
      url: form.action,
      where: where ? where.textContent.trim() : "",
      viewer: viewer(),
      // Whether the deal waited on the phone (deals before it, no network, a failed try): a
      // deal sent at once and refused at once is no waiting deal (flush).
      queued: navigator.onLine === false,
    };
    if (queue.length && queue[0].refused && queue[0].key === editingKey) {
      // The refused deal, mended in the form: it keeps its place at the head of the queue,
      // and the deals behind it count from the sheet as it is now.
      entry.queued = entry.queued || queue.length > 1;
      queue[0] = entry;
      renumber(queue);
    } else {
      entry.queued = entry.queued || queue.length > 0;
      // After the deals before it: the sheet will show them when its turn comes (a sheet
      // changed meanwhile by another phone is still caught: 409).
      var last = queue[queue.length - 1];
      entry.seen = last ? last.seen + 1 : Number(sheet().dataset.deals);
      queue.push(entry);
    }
    editingKey = null;
    writeQueue(queue);
  }

  function withoutKey(key) {
    var queue = readQueue().filter(function (entry) { return entry.key !== key; });
    writeQueue(queue);
    return queue;
  }

  // The deal could not leave at once: it waits on the phone, and a refusal when it arrives is
  // said as a waiting deal's (kept first in the queue, with "Retirer cette donne de la file").
  function markQueued(key) {
    var queue = readQueue();
    queue.forEach(function (entry) { if (entry.key === key) entry.queued = true; });
    writeQueue(queue);
  }

  function pause(message, actions) {
    paused = true;
    sending = false;
    busy(false);
    showQueue();
    showAlert(message, actions);
  }

  function resume() {
    paused = false;
    pausedKey = null;
    showAlert("");
    flush();
  }

  function discardAction(key) {
    return {
      label: say("discard"),
      run: function () {
        var queue = readQueue();
        var refused = key === editingKey;
        if (refused) editingKey = null;
        writeQueue(renumber(queue.filter(function (entry) { return entry.key !== key; })));
        if (refused && sheetForm()) {
          // The refused deal was in the form: the form is cleared for the next one.
          sheetForm().reset();
          if (window.dealformRefresh) window.dealformRefresh(sheetForm());
        }
        resume();
      },
    };
  }

  function retryActions(key) {
    return [{ label: say("retry"), run: resume }, discardAction(key)];
  }

  function scheduleRetry() {
    if (retryTimer) return;
    retryTimer = window.setTimeout(function () { retryTimer = null; flush(); }, 10000);
  }

  function flush() {
    var queue = readQueue();
    showQueue();
    if (sending || paused || !queue.length) return;
    var entry = queue[0];
    if (entry.refused) {
      // Waiting in the form for the scorer's fix; the deals behind it wait for it. A page
      // opened since (a reload, another tab) puts it back in its form.
      if (editingKey !== entry.key && sheetForm()) {
        sheetForm().reset();
        restoreDraft(sheetForm(), Array.from(new URLSearchParams(entry.body).entries()));
        editingKey = entry.key;
      }
      pause(refusedMessage(queue.length - 1), [discardAction(entry.key)]);
      return;
    }
    if (navigator.onLine === false) {
      showAlert(say("offline"));
      return;
    }
    var body = new URLSearchParams(entry.body);
    body.set("client_key", entry.key);
    if (entry.viewer) body.set("viewer", entry.viewer);
    if (entry.seen !== null && entry.seen !== undefined) body.set("seen", String(entry.seen));
    sending = true;
    busy(true);
    fetchWithTimeout(entry.url, {
      method: "POST",
      body: body,
      credentials: "same-origin",
      headers: { "HX-Request": "true", "X-CSRFToken": csrfToken() },
    }).then(function (answer) {
      var response = answer.response;
      var result = response.headers.get("X-Sheet-Result");
      sending = false;
      busy(false);
      pausedKey = entry.key;
      if (response.ok && (result === "recorded" || result === "replayed")) {
        // Matched by key: another tab may have sent (and removed) it meanwhile.
        withoutKey(entry.key);
        // Another deal is being typed meanwhile: it survives the new sheet.
        swap(answer.text, true);
        showAlert("");
        flush();
        return;
      }
      if (result === "other-login") {
        // Another login has the phone now (signed in over this page's, in another tab): the
        // deal is not recorded under his name. The sheet swapped in is his, with the server's
        // words; this page's deals stay set aside for their scorer, and his own leave.
        editingKey = null;
        pausedKey = null;
        swap(answer.text, false);
        document.body.dataset.viewer = viewer();
        showAlert("");
        flush();
        return;
      }
      if (((response.ok && result === "refused") || response.status === 409) && entry.queued === false &&
          readQueue().every(function (waiting) { return waiting.key === entry.key; })) {
        // Sent at once and refused at once, nothing behind it: an ordinary refusal. The deal
        // was never queued; it is back in the form with the server's words beside it (kept
        // as the draft: a reload finds it), and the queue says nothing of it.
        withoutKey(entry.key);
        editingKey = null;
        pausedKey = null;
        swap(answer.text, false);
        keepDraft();
        showAlert("");
        return;
      }
      if ((response.ok && result === "refused") || response.status === 409) {
        // A deal that waited on the phone, refused when it arrived (or a refusal with deals
        // behind it): back in the form (with the engine's words, or the sheet as it is now).
        // It keeps its place at the head of the queue, the ones behind it wait: the scorer
        // mends it (or takes it out of the queue) and saves it.
        var left = readQueue();
        left.forEach(function (waiting) { if (waiting.key === entry.key) waiting.refused = true; });
        swap(answer.text, false);
        editingKey = entry.key;
        writeQueue(renumber(left));
        pause(refusedMessage(left.length - 1), [discardAction(entry.key)]);
        return;
      }
      markQueued(entry.key);
      if (csrfRefused(response, answer.text)) return pause(say("session_changed"), retryActions(entry.key));
      if (loginPage(response, answer.text)) return pause(say("login"), retryActions(entry.key));
      if (response.status === 403) return pause(say("forbidden"), retryActions(entry.key));
      if (response.status === 404) return pause(say("gone"), retryActions(entry.key));
      if (response.status >= 500) {
        // The server (or a proxy in front of it) failed this time: said in words, and tried
        // again by itself in 10 s like a lost connection; the key makes a retry harmless.
        sending = false;
        busy(false);
        showQueue();
        showAlert(say("server", { status: response.status }), retryActions(entry.key));
        scheduleRetry();
        return;
      }
      pause(say("server", { status: response.status }), retryActions(entry.key));
    }).catch(function () {
      // No answer at all (offline, the Wi-Fi dropped, or no answer within SAVE_TIMEOUT). The
      // deal waits; it may have been recorded already (answer lost): its key makes the next
      // try harmless.
      sending = false;
      busy(false);
      markQueued(entry.key);
      showQueue();
      showAlert(say("offline"));
      scheduleRetry();
    });
  }

  // The sheet as it is now, after another tab of the same table recorded deals: this page's
  // next deal then counts from it (its "seen" would be one too low and meet a 409).
  function refreshSheet() {
    var form = sheetForm();
    var url = form ? form.action : window.location.href;
    fetchWithTimeout(url, {
      method: "GET",
      credentials: "same-origin",
      headers: { "HX-Request": "true" },
    }).then(function (answer) {
      if (!sending && answer.response.ok && answer.text.indexOf('id="sheet"') !== -1) swap(answer.text, true);
      if (!paused) flush();
    }).catch(function () { /* offline: the sheet is refreshed by the next answer */ });
  }

  function keysOf(value) {
    try { return (JSON.parse(value || "[]") || []).map(function (entry) { return entry.key; }); } catch (e) { return []; }
  }

  function refusedMessage(behind) {
    return behind > 0 ? say("paused_after_refusal", { n: behind }) : say("refused_alone");
  }

  function undo(form) {
    var button = form.querySelector("button[type=submit], button:not([type])");
    if (button && button.disabled) return;
    if (button) button.disabled = true;
    busy(true);
    function done() {
      busy(false);
      if (button) button.disabled = false;
    }
    fetchWithTimeout(form.action, {
      method: "POST",
      body: new URLSearchParams(new FormData(form)),
      credentials: "same-origin",
      headers: { "HX-Request": "true", "X-CSRFToken": csrfToken() },
    }).then(function (answer) {
      var response = answer.response;
      done();
      if (csrfRefused(response, answer.text)) showAlert(say("session_changed"));
      else if (loginPage(response, answer.text)) showAlert(say("login_undo"));
      else if (response.ok || response.status === 409) {
        swap(answer.text, false);
        // The undone deal, back in the form, is kept as the draft: a reload finds it there.
        if (document.querySelector(".last-deal.undone")) keepDraft();
      }
      else if (response.status === 403) showAlert(say("forbidden_undo"));
      else showAlert(say("server_undo", { status: response.status }));
    }).catch(function () {
      done();
      showAlert(say("offline_undo"));
    });
  }

  function onSubmit(event) {
    var form = event.target;
    if (form.matches("form[data-sheet-form]")) {
      event.preventDefault();
      if (!form.querySelector('input[name$="contract"]:checked') && form.querySelector('input[name$="contract"]')) {
        showAlert(say("choose_contract"));
        return;
      }
      enqueue(form);
      forgetDraft();
      // The deal is in the queue (shown in the badge until it is recorded): the form is
      // cleared for the next one, which survives the answer's new sheet.
      form.reset();
      if (window.dealformRefresh) window.dealformRefresh(form);
      // Saving is the scorer's go: a queue paused on a refusal moves again.
      resume();
      return;
    }
    if (form.matches("form[data-undo]")) {
      event.preventDefault();
      if (readQueue().length) {
        showAlert(say("undo_waiting"));
        return;
      }
      undo(form);
    }
  }

  function showDraftNote(shown) {
    var note = document.querySelector("[data-draft-note]");
    if (note) note.hidden = !shown;
  }

  function setup() {
    var root = sheet();
    if (!root) return;
    var form = sheetForm();
    // The browser's own checks would stop a form whose radios are hidden behind buttons; the
    // server checks everything and says it in words.
    if (form) form.noValidate = true;
    showQueue();
  }

  document.addEventListener("DOMContentLoaded", function () {
    var messages = document.getElementById("sheet-messages");
    if (messages) TEXT = JSON.parse(messages.textContent);
    var points = document.getElementById("sheet-points");
    if (points) POINTS = JSON.parse(points.textContent);
    if (!sheet()) return;
    document.addEventListener("submit", onSubmit);
    ["change", "input"].forEach(function (type) {
      document.addEventListener(type, function (event) {
        if (!quiet && event.target.closest && event.target.closest("form[data-sheet-form]")) keepDraft();
      });
    });
    window.addEventListener("online", function () {
      // A refused deal waiting in the form keeps the queue paused (flush says so again).
      paused = false;
      showAlert("");
      flush();
    });
    window.addEventListener("offline", function () { showQueue(); });
    // Another tab of the same table changed the queue (sent a deal, queued one): show it; a
    // deal it sent is answered there, and one it queued leaves from whichever tab is free.
    window.addEventListener("storage", function (event) {
      if (event.key !== queueKey()) return;
      if (editingKey && !readQueue().some(function (entry) { return entry.key === editingKey; })) {
        // The refused deal this form holds was mended (or taken out) in the other tab.
        editingKey = null;
        if (sheetForm()) {
          sheetForm().reset();
          if (window.dealformRefresh) window.dealformRefresh(sheetForm());
        }
      }
      var now = keysOf(event.newValue);
      var gone = keysOf(event.oldValue).filter(function (key) { return now.indexOf(key) === -1; });
      if (paused && pausedKey && gone.indexOf(pausedKey) !== -1 && pausedKey !== editingKey) {
        // The deal this page failed to send was sent (or taken out) by the other tab.
        paused = false;
        pausedKey = null;
        showAlert("");
      }
      showQueue();
      if (gone.length && !sending) refreshSheet();
      else if (!paused) flush();
    });
    // A deal left half-typed or undone (not one the page brings back with its errors), put
    // back before anything else touches the form: at a table of 5 the waiting deals move the
    // mort on, which refreshes the form, and that must not find it still empty.
    var form = sheetForm();
    if (form && !form.querySelector(".dealform-errors, .errorlist") && !document.querySelector(".last-deal.undone")) {
      var kept = savedDraft();
      restoreDraft(form, kept);
      // Brought back, the deal says it is not saved yet, with a way to start afresh.
      showDraftNote(kept.length > 0);
    }
    document.addEventListener("click", function (event) {
      if (!event.target.closest || !event.target.closest("[data-draft-clear]")) return;
      var typed = sheetForm();
      if (!typed) return;
      typed.reset();
      if (window.dealformRefresh) window.dealformRefresh(typed);
      forgetDraft();
      showDraftNote(false);
    });
    setup();
    // Deals left waiting by an earlier visit (the phone slept, the page was reloaded).
    flush();
  });
})();
