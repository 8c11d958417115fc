// Live preview: the server says when the game changed; the page swaps in the new parts.
// Images are addressed by content, so only faces that changed are fetched again.
"use strict";

function swap(id, html) {
  const old = document.getElementById(id);
  if (!old || old.outerHTML === html) return;
  const holder = document.createElement("div");
  holder.innerHTML = html;
  old.replaceWith(holder.firstElementChild);
}

// the server's per-session secret, sent with every build (serve/guard.py)
function token() {
  return document.querySelector('meta[name="spellpress-token"]').content;
}

async function update() {
  const response = await fetch("/fragment" + location.pathname + location.search, { cache: "no-store" });
  if (!response.ok) return;
  const parts = await response.json();
  swap("errors", parts.errors);
  if (parts.content !== null) swap("content", parts.content);
  document.getElementById("counts").textContent = parts.counts;
  document.body.dataset.version = parts.version;
}

function listen() {
  const live = document.getElementById("live");
  const events = new EventSource("/events");
  events.onopen = () => { live.className = "live on"; live.textContent = "live"; };
  events.onerror = () => { live.className = "live off"; live.textContent = "reconnecting"; };
  events.onmessage = (event) => {
    if (event.data !== document.body.dataset.version) update();
  };
}

function builds() {
  const form = document.getElementById("build");
  const out = document.getElementById("downloads");
  // the build's choices are remembered by the browser from page to page
  const saved = JSON.parse(localStorage.getItem("spellpress.build") || "{}");
  for (const input of form.elements) {
    if (!(input.name in saved)) continue;
    if (input.type === "checkbox") input.checked = saved[input.name] === true;
    else if ([...input.options].some(o => o.value === saved[input.name])) input.value = saved[input.name];
  }
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const button = form.querySelector("button");
    button.disabled = true;
    out.hidden = false;
    out.textContent = "building\u2026";
    try {
      const wanted = Object.fromEntries([...form.querySelectorAll("input[type=checkbox]")].map(i => [i.name, i.checked]));
      for (const select of form.querySelectorAll("select")) wanted[select.name] = select.value;  // "": the game's
      localStorage.setItem("spellpress.build", JSON.stringify(wanted));
      const response = await fetch("/build", {
        method: "POST",
        headers: { "Content-Type": "application/json", "X-Spellpress-Token": token() },
        body: JSON.stringify(wanted),
      });
      if (!response.ok) {  // refused by the server's guard, or an unknown paper, for instance: say why
        const text = await response.text();
        try { out.textContent = JSON.parse(text).errors.join("\n"); } catch { out.textContent = text; }
        out.className = "downloads failed";
        return;
      }
      const result = await response.json();
      out.innerHTML = "";
      if (result.errors) {
        out.textContent = result.errors.join("\n");
        out.className = "downloads failed";
      } else {
        out.className = "downloads";
        out.append(`Built in ${result.seconds} s: `);
        const all = document.createElement("a");
        all.href = result.zip;
        all.id = "zip";
        all.textContent = `all ${result.files.length} files (ZIP)`;
        all.setAttribute("download", "");
        const each = document.createElement("details");
        const summary = document.createElement("summary");
        summary.textContent = "one by one";
        each.append(summary);
        for (const file of result.files) {
          const link = document.createElement("a");
          link.href = "/download/" + file.split("/").map(encodeURIComponent).join("/");
          link.textContent = file;
          link.setAttribute("download", "");
          each.append(link, " ");
        }
        out.append(all, each);
      }
    } finally {
      button.disabled = false;
    }
  });
}

// the card-size slider: a share of actual size (1 = CSS millimetres), remembered by the browser
function zoom() {
  const slider = document.getElementById("zoom");
  const shown = document.getElementById("zoom-shown");
  const apply = (value) => {
    document.documentElement.style.setProperty("--zoom", value);
    slider.value = value;
    shown.textContent = Math.round(value * 100) + "%";
  };
  const saved = parseFloat(localStorage.getItem("spellpress.zoom"));
  if (saved >= 0.2 && saved <= 1) apply(saved);
  slider.addEventListener("input", () => {
    apply(slider.value);
    localStorage.setItem("spellpress.zoom", slider.value);
  });
}

// the card view: arrow keys step to the previous/next card; the overlays' toggle is remembered
function cardView() {
  document.addEventListener("keydown", (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey || event.target.closest("select, textarea, input:not([type=checkbox])")) return;
    const rel = { ArrowLeft: "prev", ArrowRight: "next" }[event.key];
    const link = rel && document.querySelector(`#content a[rel=${rel}]`);
    if (link) location.href = link.href;
  });
  const hidden = () => localStorage.getItem("spellpress.overlays") === "off";
  const show = () => {
    document.body.classList.toggle("no-overlays", hidden());
    const box = document.getElementById("overlays");
    if (box) box.checked = !hidden();
  };
  document.addEventListener("change", (event) => {
    if (event.target.id !== "overlays") return;
    localStorage.setItem("spellpress.overlays", event.target.checked ? "on" : "off");
    show();
  });
  new MutationObserver(show).observe(document.body, { childList: true });  // a live update swaps #content
  show();
}

listen();
builds();
zoom();
cardView();
