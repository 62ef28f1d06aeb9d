// The cluster-level overview: one node per cluster, one edge per pair of clusters joined by cables,
// each with what the document says of it summed up (gateways up and failed, flows leaving and
// arriving, delivered or not; per edge the drivers, the flows that cross it and whether any of them
// fails). At 50 clusters the detailed topology is 600 hosts small enough to be unreadable; this is
// the picture that still reads, and a way into the detailed one.
// Loaded before app.js, which draws it through window.PeriscopeOverview with its own helpers.
(function () {
  "use strict";

  // Past this many clusters the overview is the page's first view: at 13 the detailed topology's
  // cluster names already render below 11 px on a 1600×1000 window.
  const DEFAULT_ABOVE = 12;

  const clusterOf = node => node.split("/")[0];
  const pairKey = (a, b) => a < b ? `${a}~${b}` : `${b}~${a}`;

  // The cables a path's packets cross, as pair keys: wherever two hops in a row are in different
  // clusters (Submariner carries a packet between clusters only over a cable, gateway to gateway).
  function cablesCrossed(path) {
    const crossed = new Set();
    for (const direction of ["forward", "reply"]) {
      const hops = path[direction] ? path[direction].hops : [];
      for (let i = 1; i < hops.length; i++) {
        const a = clusterOf(hops[i - 1].node), b = clusterOf(hops[i].node);
        if (a !== b) crossed.add(pairKey(a, b));
      }
    }
    return [...crossed];
  }

  // Per cluster and per pair of clusters, what the document says of them.
  function summarise(doc) {
    const topology = doc.topology;
    const clusters = new Map(topology.clusters.map(c => {
      const gateways = c.hosts.filter(h => h.kind === "gateway");
      return [c.name, {name: c.name, cni: c.cni,
        gateways: {total: gateways.length, failed: gateways.filter(h => h.state === "failed").length,
          active: gateways.filter(h => h.state === "active").length},
        from: {delivered: 0, dropped: 0}, to: {delivered: 0, dropped: 0}}];
    }));
    const edges = new Map();
    for (const cable of topology.cables) {
      const key = pairKey(cable.left, cable.right);
      if (!edges.has(key)) edges.set(key, {key, left: cable.left, right: cable.right, drivers: [], flows: new Set(), dropped: new Set()});
      const edge = edges.get(key);
      if (!edge.drivers.includes(cable.driver)) edge.drivers.push(cable.driver);
    }
    for (const flow of doc.flows || []) {
      const paths = flow.paths || [];
      const delivered = paths.length > 0 && paths.every(p => p.disposition === "delivered");
      const outcome = delivered ? "delivered" : "dropped";
      const firstHop = paths.length && paths[0].forward && paths[0].forward.hops.length ? paths[0].forward.hops[0].node : flow.from;
      const source = firstHop ? clusters.get(clusterOf(firstHop)) : null;
      if (source) source.from[outcome]++;
      // Where its paths end: delivered there, or dropped on the way there.
      const ends = new Set(paths.filter(p => p.forward && p.forward.hops.length).map(p => clusterOf(p.forward.hops[p.forward.hops.length - 1].node)));
      for (const end of ends) if (clusters.has(end)) clusters.get(end).to[outcome]++;
      for (const path of paths) {
        for (const key of cablesCrossed(path)) {
          const edge = edges.get(key);
          if (!edge) continue;
          edge.flows.add(flow.name);
          if (path.disposition !== "delivered") edge.dropped.add(flow.name);
        }
      }
    }
    return {clusters: [...clusters.values()], edges: [...edges.values()]};
  }

  // How a cluster's gateways stand: every one up, some failed, or none left to carry its cables.
  function health(cluster) {
    const g = cluster.gateways;
    if (g.total === 0 || g.failed === g.total) return "down";
    return g.failed ? "degraded" : "up";
  }

  function clusterTitle(c) {
    const g = c.gateways;
    return `${c.name} (${c.cni})\ngateways: ${g.total - g.failed} up (${g.active} active), ${g.failed} failed`
      + `\nflows from it: ${c.from.delivered} delivered, ${c.from.dropped} not`
      + `\nflows ending in it: ${c.to.delivered} delivered, ${c.to.dropped} not\nclick: the detailed topology, framed on it`;
  }

  function edgeTitle(e) {
    return `${e.left} – ${e.right}: ${e.drivers.join(", ")}`
      + `\n${e.flows.size} flow${e.flows.size === 1 ? "" : "s"} cross it` + (e.dropped.size ? `, ${e.dropped.size} not delivered` : "")
      + (e.flows.size ? "\nclick: the flow table, filtered to them" : "");
  }

  // The clusters on a circle, in file order, their names outside it and turned along their radius, so
  // that every cable is a chord: it never runs through another cluster, at a full mesh of 1,225 neither.
  // Coordinates are the canvas's own pixels, so a 12 px label renders at 12 px until the user zooms.
  function layout(summary, size) {
    const n = summary.clusters.length;
    const longest = Math.max(...summary.clusters.map(c => labelText(c).length), 4);
    const labelRoom = 12 + longest * 7.4;
    const radius = Math.max(40, Math.min(size.w, size.h) / 2 - labelRoom - 12);
    const centre = {x: size.w / 2, y: size.h / 2};
    const positions = new Map();
    summary.clusters.forEach((c, i) => {
      const angle = n === 1 ? -Math.PI / 2 : -Math.PI / 2 + 2 * Math.PI * i / n;
      positions.set(c.name, {x: centre.x + radius * Math.cos(angle), y: centre.y + radius * Math.sin(angle), angle});
    });
    const spacing = n > 1 ? 2 * Math.PI * radius / n : radius;
    return {positions, centre, radius, node: Math.max(5, Math.min(14, spacing * 0.3))};
  }

  function labelText(c) {
    const failed = c.from.dropped + c.to.dropped;
    return c.name + (failed ? ` ✕${failed}` : "");
  }

  // page: {el, svg, pane, panZoom, openCluster(name), openCable(edge)} from app.js.
  function draw(doc, size, page) {
    const {svg} = page;
    const summary = summarise(doc);
    const at = layout(summary, size);
    const home = {x: 0, y: 0, w: size.w, h: size.h};
    const root = svg("svg", {"class": "scene overview", "data-pane": "overview", viewBox: `0 0 ${size.w} ${size.h}`,
      preserveAspectRatio: "xMidYMid meet"});
    const world = svg("g", {"class": "world"});
    const edges = svg("g", {"class": "overview-cables"});
    // Cables no flow crosses first, faint; then the crossed ones, drawn thicker with the flows they carry.
    const ordered = [...summary.edges].sort((a, b) => a.flows.size - b.flows.size);
    const dense = summary.edges.length > 2 * summary.clusters.length;
    for (const e of ordered) {
      const p = at.positions.get(e.left), q = at.positions.get(e.right);
      if (!p || !q) continue;
      const g = svg("g", {"class": `overview-cable ${e.drivers[0]}` + (e.flows.size ? " crossed" : "") + (e.dropped.size ? " dropped" : "")
          + (dense && !e.flows.size ? " dense" : ""),
        "data-left": e.left, "data-right": e.right, "data-flows": e.flows.size, "data-dropped": e.dropped.size});
      const width = e.flows.size ? Math.min(7, 2 + e.flows.size) : 1.5;
      g.append(svg("line", {"class": "line", x1: p.x, y1: p.y, x2: q.x, y2: q.y, "stroke-width": width}),
        // A wider transparent stroke to click: a 1.5 px chord is hard to hit.
        svg("line", {"class": "hit", x1: p.x, y1: p.y, x2: q.x, y2: q.y}),
        svg("title", {}, edgeTitle(e)));
      if (e.dropped.size) {
        const m = {x: (p.x + q.x) / 2, y: (p.y + q.y) / 2};
        g.append(svg("path", {"class": "drop", d: `M${m.x - 5},${m.y - 5} L${m.x + 5},${m.y + 5} M${m.x - 5},${m.y + 5} L${m.x + 5},${m.y - 5}`}));
      }
      if (e.flows.size) g.addEventListener("click", () => page.openCable(e));
      edges.append(g);
    }
    const nodes = svg("g", {"class": "overview-clusters"});
    for (const c of summary.clusters) {
      const p = at.positions.get(c.name);
      const g = svg("g", {"class": `overview-cluster ${health(c)}`, "data-name": c.name, "data-health": health(c),
        "data-from-delivered": c.from.delivered, "data-from-dropped": c.from.dropped,
        "data-to-delivered": c.to.delivered, "data-to-dropped": c.to.dropped});
      g.append(svg("circle", {cx: p.x, cy: p.y, r: at.node}));
      // The label along the radius, outward; on the left half turned the other way so it never reads upside down.
      const degrees = p.angle * 180 / Math.PI;
      const left = Math.cos(p.angle) < -1e-9;
      const gap = at.node + 5;
      const label = svg("text", {"class": "overview-label", x: p.x + Math.cos(p.angle) * gap, y: p.y + Math.sin(p.angle) * gap,
        "text-anchor": left ? "end" : "start", "dominant-baseline": "central",
        transform: `rotate(${left ? degrees + 180 : degrees} ${p.x + Math.cos(p.angle) * gap} ${p.y + Math.sin(p.angle) * gap})`});
      label.append(svg("tspan", {"class": "name"}, c.name));
      const failed = c.from.dropped + c.to.dropped;
      if (failed) label.append(svg("tspan", {"class": "failed-flows"}, ` ✕${failed}`));
      g.append(label, svg("title", {}, clusterTitle(c)));
      g.addEventListener("click", () => page.openCluster(c.name));
      nodes.append(g);
    }
    world.append(edges, nodes);
    root.append(world);
    root.zoomControls = page.panZoom(root, home, `overview|${size.w}x${size.h}`);
    return {root, summary};
  }

  // The sidebar: what the picture sums up, one row per cluster, in figures; a row opens its cluster.
  function sidebar(summary, page) {
    const {el} = page;
    const crossed = summary.edges.filter(e => e.flows.size);
    const failing = crossed.filter(e => e.dropped.size);
    const table = el("table", {"class": "report", id: "overview-clusters"},
      el("tr", {}, el("th", {text: "cluster"}), el("th", {text: "gateways up"}), el("th", {text: "flows from ✓/✕"}), el("th", {text: "to ✓/✕"})));
    for (const c of summary.clusters) {
      table.append(el("tr", {"class": `overview-row ${health(c)}`, "data-name": c.name, onclick: () => page.openCluster(c.name), title: "open it"},
        el("td", {text: c.name}),
        el("td", {"class": "gateways-up", text: `${c.gateways.total - c.gateways.failed}/${c.gateways.total}`}),
        el("td", {text: `${c.from.delivered}/${c.from.dropped}`}),
        el("td", {text: `${c.to.delivered}/${c.to.dropped}`})));
    }
    return el("div", {id: "overview-summary"},
      el("div", {"class": "kv", id: "overview-count"}, `${summary.clusters.length} clusters, ${summary.edges.length} cluster pairs joined by cables; `
        + `${crossed.length} crossed by flows, ${failing.length} by a flow not delivered`),
      el("div", {"class": "legend"},
        el("span", {}, el("span", {"class": "overview-dot up"}), "every gateway up"),
        el("span", {}, el("span", {"class": "overview-dot degraded"}), "some failed"),
        el("span", {}, el("span", {"class": "overview-dot down"}), "none up"),
        el("span", {}, el("span", {"class": "swatch", style: "background:#0969da"}), "vxlan"),
        el("span", {}, el("span", {"class": "swatch", style: "background:#8250df"}), "wireguard"),
        el("span", {}, el("span", {"class": "swatch", style: "background:#bc4c00"}), "libreswan"),
        el("span", {}, el("span", {"class": "legend-mark drop", text: "✕"}), "a flow not delivered")),
      el("p", {"class": "hint", text: "Thick cables carry flows: click one for the flow table filtered to them. "
        + "Click a cluster for the detailed topology, framed on it."}),
      table);
  }

  window.PeriscopeOverview = {DEFAULT_ABOVE, summarise, cablesCrossed, pairKey, draw, sidebar};
})();
