// The reviewers' workspace: keyboard work, citation highlights, and decisions sent without
// reloading the page. Lease text is never written as HTML here (no innerHTML): only
// classes, positions and focus change, and a decision's answer is the server's own
// autoescaped page, whose header and fields replace the old ones (the document stays).
"use strict";

(function () {
  let item = document.querySelector(".item");
  let fields = [];
  let active = null;
  let timer = null;

  function parse(el, name) {
    try { return JSON.parse(el.dataset[name] || "[]"); } catch (e) { return []; }
  }

  function clearHighlights() {
    document.querySelectorAll(".hl-box").forEach((box) => box.remove());
    document.querySelectorAll(".hl, .hl-rival").forEach((seg) => seg.classList.remove("hl", "hl-rival"));
  }

  // A box over a page image, in fractions of the page (the server's boxes), so it stays
  // on its text at any zoom.
  function addBox(page, [left, top, right, bottom], className) {
    const box = document.createElement("div");
    box.className = className;
    box.style.left = (left * 100) + "%";
    box.style.top = (top * 100) + "%";
    box.style.width = ((right - left) * 100) + "%";
    box.style.height = ((bottom - top) * 100) + "%";
    page.appendChild(box);
    return box;
  }

  function highlight(field) {
    clearHighlights();
    let first = null;
    for (const spot of parse(field, "highlights")) {
      const page = document.getElementById("page-" + spot.page);
      if (!page) continue;
      for (const coords of spot.boxes) {
        const box = addBox(page, coords, "hl-box");
        first = first || box;
      }
      first = first || page;
    }
    for (const [pageNo, start, end] of parse(field, "spans")) {
      const page = document.querySelector("article.text-page#page-" + pageNo);
      if (!page) continue;
      page.querySelectorAll("[data-s]").forEach((seg) => {
        const s = Number(seg.dataset.s), e = Number(seg.dataset.e);
        if (s >= 0 && s >= start && e <= end) {
          seg.classList.add("hl");
          first = first || seg;
        }
      });
    }
    // Nothing cited (a field stated but not read): its page, if the pipeline named one.
    first = first || (field.dataset.page && document.getElementById("page-" + field.dataset.page));
    if (first) first.scrollIntoView({ block: "center", behavior: "auto" });
  }

  // A rival value the lease also states: boxed (dashed) on its own page, scrolled to.
  function showRival(field) {
    if (!field) return;
    const rivals = parse(field, "rivals");
    let first = null;
    for (const rival of rivals) {
      for (const spot of rival.highlights || []) {
        const page = document.getElementById("page-" + spot.page);
        if (!page) continue;
        for (const coords of spot.boxes) {
          const box = addBox(page, coords, "hl-box rival");
          first = first || box;
        }
      }
      const [pageNo, start, end] = rival.span || [];
      const textPage = pageNo && document.querySelector("article.text-page#page-" + pageNo);
      if (textPage) {
        textPage.querySelectorAll("[data-s]").forEach((seg) => {
          const s = Number(seg.dataset.s), e = Number(seg.dataset.e);
          if (s >= 0 && s >= start && e <= end) { seg.classList.add("hl-rival"); first = first || seg; }
        });
      }
      first = first || (pageNo && document.getElementById("page-" + pageNo));
    }
    if (first) first.scrollIntoView({ block: "center", behavior: "auto" });
  }

  function activate(field, focus) {
    if (!field) return;
    if (active) active.classList.remove("active");
    active = field;
    field.classList.add("active");
    if (focus && document.activeElement !== field) field.focus({ preventScroll: false });
    highlight(field);
  }

  function move(step) {
    const at = active ? fields.indexOf(active) : -1;
    const next = fields[Math.min(fields.length - 1, Math.max(0, at + step))];
    activate(next, true);
    next.scrollIntoView({ block: "nearest" });
  }

  function submit(selector) {
    const form = active && active.querySelector(selector);
    if (form) form.requestSubmit();
  }

  function edit() {
    const details = active && active.querySelector("details.edit");
    if (!details) return;
    details.open = true;
    const input = details.querySelector("input:not([type=hidden]), select");
    if (input) { input.focus(); if (input.select) input.select(); }
  }

  document.addEventListener("keydown", (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const typing = event.target.closest && event.target.closest("input, select, textarea");
    if (typing) {
      if (event.key === "Escape") {
        const details = event.target.closest("details.edit");
        if (details) details.open = false;
        const field = event.target.closest(".field");
        if (field) field.focus();
        else event.target.blur();
      }
      return;
    }
    const key = event.key;
    const onField = event.target.classList && event.target.classList.contains("field");
    // A claim that ran out decides nothing from the keyboard either: say so instead.
    if (item && item.dataset.mine === "expired" && ["c", "n", "e", "a", "r", "Enter"].includes(key)) {
      event.preventDefault();
      const banner = document.getElementById("claim-expired");
      if (banner) { banner.hidden = false; banner.focus(); }
      return;
    }
    const handlers = {
      j: () => move(1), ArrowDown: () => move(1),
      k: () => move(-1), ArrowUp: () => move(-1),
      c: () => submit("form.confirm-form"),
      n: () => submit("form.not-stated-form"),
      e: edit,
      a: approve,
      r: () => { const r = document.getElementById("reject-reason"); if (r) r.focus(); },
      "?": () => toggleHelp(),
      o: () => { const link = document.getElementById("reopen"); if (link) link.click(); },
      q: () => { const b = document.getElementById("qa-check"); if (b) b.form.requestSubmit(); },
      v: () => showRival(active),
      "+": () => setZoom(1), "=": () => setZoom(1), "-": () => setZoom(-1), "0": () => setZoom(0),
      PageDown: () => scrollPages(1), PageUp: () => scrollPages(-1),
    };
    if (key === "Enter" && onField) { event.preventDefault(); edit(); return; }
    if (!fields.length && !["?"].includes(key)) return;
    if (handlers[key]) { event.preventDefault(); handlers[key](); }
  });

  // Approve: a document sent to a person for what it is first needs the statement of
  // what is committed (the select); one key press never commits it unasked.
  function approve() {
    const statement = document.getElementById("committed-as");
    if (statement && !statement.value) {
      statement.focus();
      const summary = document.getElementById("commit-summary");
      if (summary) summary.classList.add("asked");
      return;
    }
    const button = document.getElementById("approve");
    if (button) button.form.requestSubmit();
  }

  // The page images: zoom (the pane scrolls both ways) and keyboard scrolling.
  const ZOOMS = [0.75, 1, 1.25, 1.5, 2, 2.5, 3];
  let zoom = 1;
  function setZoom(step) {
    const pane = document.querySelector("section.document");
    if (!pane) return;
    const at = ZOOMS.indexOf(zoom);
    zoom = step === 0 ? 1 : ZOOMS[Math.min(ZOOMS.length - 1, Math.max(0, at + step))];
    pane.style.setProperty("--zoom", String(zoom));
    const level = pane.querySelector("[data-zoom-level]");
    if (level) level.textContent = Math.round(zoom * 100) + "%";
  }
  function scrollPages(direction) {
    const pane = document.querySelector("section.document");
    if (pane) pane.scrollBy({ top: direction * pane.clientHeight * 0.85, behavior: "auto" });
  }

  function toggleHelp() {
    const keys = document.getElementById("keys");
    if (keys) keys.hidden = !keys.hidden;
  }

  // "Add a period" in the rent schedule editor: a copy of the last row, emptied.
  function addPeriod(button) {
    const body = button.closest("form").querySelector(".edit-steps tbody");
    const row = body.lastElementChild.cloneNode(true);
    row.querySelectorAll("input").forEach((input) => {
      const [prefix, column, index] = input.name.split("-");
      input.name = [prefix, column, Number(index) + 1].join("-");
      input.value = "";
      input.removeAttribute("aria-invalid");
    });
    body.appendChild(row);
    row.querySelector("input").focus();
  }

  // The claim: a countdown, and when it runs out the page says the item is back in the
  // queue and stops offering decisions (the server refuses them anyway).
  function countdown() {
    if (timer) clearTimeout(timer);
    if (!item || item.dataset.expiresIn === undefined) return;
    const deadline = Date.now() + Number(item.dataset.expiresIn) * 1000;
    const shown = document.querySelector("[data-countdown]");
    const tick = () => {
      const left = Math.max(0, Math.round((deadline - Date.now()) / 1000));
      if (shown) shown.textContent = Math.ceil(left / 60) + " min";
      if (left > 0) { timer = setTimeout(tick, Math.min(15000, left * 1000)); return; }
      const banner = document.getElementById("claim-expired");
      if (banner) banner.hidden = false;
      item.dataset.mine = "expired";
      document.querySelectorAll(".decide button, .edit button, .actions button").forEach((b) => {
        b.disabled = true;
      });
    };
    tick();
  }

  // Times are written in UTC (the record's); the reader's local time goes beside them.
  function localTimes(root) {
    root.querySelectorAll("time[datetime]").forEach((stamp) => {
      const moment = new Date(stamp.getAttribute("datetime"));
      if (Number.isNaN(moment.getTime()) || moment.getTimezoneOffset() === 0) return;
      if (stamp.querySelector(".local")) return;
      const local = document.createElement("span");
      local.className = "local";
      local.textContent = " (" + moment.toLocaleString([], { dateStyle: "medium", timeStyle: "short" }) + " your time)";
      stamp.appendChild(local);
    });
  }

  // A field decision (confirm, not stated, a correction) is sent in the background; the
  // answer is the item's page as the server renders it after the decision (or with the
  // refusal next to the field), and its header and fields replace these. Anything else
  // (a sign-in page, a network error) falls back to sending the form as a page would.
  async function decide(form, submitter) {
    const body = new FormData(form, submitter);
    let answer;
    try {
      answer = await fetch(form.action, {
        method: "POST", body, headers: { "X-Fragment": "1" }, credentials: "same-origin",
      });
    } catch (e) { form.submit(); return; }
    if (answer.redirected || !(answer.headers.get("content-type") || "").startsWith("text/html")) {
      window.location.assign(answer.url);
      return;
    }
    const page = new DOMParser().parseFromString(await answer.text(), "text/html");
    const next = page.querySelector(".item");
    if (!next) { window.location.assign(answer.url); return; }
    const documentPane = item.querySelector("section.document");
    const placeholder = next.querySelector("section.document");
    if (documentPane && placeholder) placeholder.replaceWith(documentPane);
    const flash = page.querySelector(".flash");
    document.querySelectorAll(".flash").forEach((old) => old.remove());
    if (flash) document.querySelector("main").before(document.adoptNode(flash));
    item.replaceWith(document.adoptNode(next));
    init();
    document.body.dataset.decisions = String(Number(document.body.dataset.decisions || 0) + 1);
  }

  function init() {
    item = document.querySelector(".item");
    fields = Array.from(document.querySelectorAll(".field"));
    active = null;
    clearHighlights();
    fields.forEach((field) => {
      field.addEventListener("focusin", () => { if (active !== field) activate(field, false); });
      field.addEventListener("click", (event) => {
        if (event.target.closest("form, details, a")) return;
        activate(field, true);
      });
    });
    document.querySelectorAll(".fields form").forEach((form) => {
      form.addEventListener("submit", (event) => {
        if (event.defaultPrevented) return;
        event.preventDefault();
        decide(form, event.submitter);
      });
    });
    document.querySelectorAll(".add-step").forEach((b) => b.addEventListener("click", () => addPeriod(b)));
    document.querySelectorAll("[data-zoom]").forEach((b) => { b.onclick = () => setZoom(Number(b.dataset.zoom)); });
    document.querySelectorAll(".show-rival").forEach((b) => b.addEventListener("click", () => {
      const field = b.closest(".field");
      activate(field, false);
      showRival(field);
    }));
    document.querySelectorAll("[data-help]").forEach((b) => { b.onclick = toggleHelp; });
    countdown();
    localTimes(document);
    if (!item) return;
    // Where the keyboard starts: the next field to check, or the approve button.
    const focus = item.dataset.focus;
    const target = focus === "approve" ? null : document.getElementById("field-" + focus);
    if (target) activate(target, true);
    else {
      activate(fields[0], false);
      const approveButton = document.getElementById("approve");
      if (approveButton) approveButton.focus();
    }
    const invalid = document.querySelector(".field.has-error input[aria-invalid], .field.has-error input, .field.has-error select");
    if (invalid) { activate(invalid.closest(".field"), false); invalid.focus(); }
  }

  init();
})();
