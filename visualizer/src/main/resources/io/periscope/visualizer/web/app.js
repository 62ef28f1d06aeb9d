// Periscope's page: draws the trace document (format periscope-trace, version 2) that `periscope serve`
// answers at api/document, or that `periscope trace --html` embeds as window.PERISCOPE_DOCUMENT.
// Positions come from the document (ELK layered, computed in Java); this file only draws them.
(function () {
  "use strict";

  const SVG = "http://www.w3.org/2000/svg";
  // Path colours, none of them a cable's (vxlan blue, wireguard purple, libreswan orange, grey) nor the
  // red of a drop, so a path never reads as the cable it crosses.
  const PALETTE = ["#1b7c83", "#bf3989", "#2f9e44", "#b08800", "#a61e4d", "#5c940d", "#1098ad", "#6f4e37"];
  // Past the eight: hues spread by the golden angle, stepping over the cables' and the drop's hues.
  function pathColour(index) {
    if (index < PALETTE.length) return PALETTE[index];
    let hue = (index * 137.508) % 360;
    for (const taken of [0, 25, 215, 265]) {
      if (Math.abs(hue - taken) < 18) hue = (taken + 18) % 360;
    }
    return `hsl(${Math.round(hue)}, 65%, 36%)`;
  }
  const FIELDS = ["src", "dst", "sport", "dport", "proto"];
  // The what-if report's change (FailoverReport.Change) as the table says it.
  const CHANGES = {keeps: "keeps", moves: "moves", breaks: "breaks", "still-broken": "still broken", "works-now": "works now"};
  const PAGE_ROWS = 40;
  const embedded = window.PERISCOPE_DOCUMENT || null;

  const state = {
    doc: null,              // the current document
    view: "topology",
    flowIndex: 0,           // which of doc.flows the flow view shows
    adHoc: null,            // an ad-hoc flow's document entry, when the user typed one
    selected: null,         // {path, direction, hop}
    failed: [],             // the what-if view's failed gateways
    whatIf: null,           // the last what-if answer
    whatIfFlow: 0,
    matrix: null,
    matrixCluster: "",
    matrixNamespace: "",
    matrixPage: 0,
    everyCluster: false,    // the flow view draws every cluster where it stands rather than the flow's side by side
    tableShow: "",          // the flow table's disposition filter: "", delivered, not-delivered or one disposition
    tableQuery: "",         // the flow table's search words
    showUnconnected: null,
    labStatus: null,        // api/lab's answer, with the revision it was asked for
    labStatusLoading: false,
    labFlow: 0,             // which of doc.flows the lab view probes
    labAnswer: null,        // the last probe's document (version 3)
    labBusy: false,
    labError: null,
  };

  // ---------------------------------------------------------------- helpers

  function el(tag, attributes, ...children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attributes || {})) {
      if (value === undefined || value === null || value === false) continue;
      if (key === "onclick" || key === "onchange" || key === "onsubmit" || key === "oninput") node[key] = value;
      else if (key === "text") node.textContent = value;
      else node.setAttribute(key, value === true ? "" : value);
    }
    for (const child of children.flat()) {
      if (child === null || child === undefined) continue;
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return node;
  }

  function svg(tag, attributes, text) {
    const node = document.createElementNS(SVG, tag);
    for (const [key, value] of Object.entries(attributes || {})) {
      if (value !== undefined && value !== null) node.setAttribute(key, value);
    }
    if (text !== undefined) node.textContent = text;
    return node;
  }

  async function api(path, body) {
    const options = body === undefined ? {} : {method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(body)};
    const response = await fetch(path, options);
    // An error may come as text (a 404's page, a proxy's answer): its message is shown either way.
    const text = await response.text();
    let json = null;
    try {
      json = JSON.parse(text);
    } catch (e) {
      if (response.ok) throw new Error(`${path}: the server answered no JSON`);
    }
    if (!response.ok) throw new Error((json && json.error) || `${response.status} ${text.trim() || response.statusText}`);
    return json;
  }

  function hostIndex(topology) {
    const hosts = new Map();
    for (const cluster of topology.clusters) {
      for (const host of cluster.hosts) hosts.set(host.id, host);
    }
    return hosts;
  }

  function centre(box) {
    return {x: box.x + box.w / 2, y: box.y + box.h / 2};
  }

  // Where the segment from a box's centre towards `to` leaves the box.
  function border(box, to) {
    const c = centre(box);
    const dx = to.x - c.x, dy = to.y - c.y;
    if (dx === 0 && dy === 0) return c;
    const sx = dx === 0 ? Infinity : (box.w / 2) / Math.abs(dx);
    const sy = dy === 0 ? Infinity : (box.h / 2) / Math.abs(dy);
    const s = Math.min(sx, sy);
    return {x: c.x + dx * s, y: c.y + dy * s};
  }

  // A polyline through `points`, every segment moved `offset` pixels to its left, so that paths over
  // the same hosts run side by side instead of on top of each other.
  function offsetLine(points, offset) {
    if (points.length < 2) return points;
    const out = [];
    for (let i = 0; i < points.length; i++) {
      const a = points[Math.max(0, i - 1)], b = points[Math.min(points.length - 1, i + 1)];
      const dx = b.x - a.x, dy = b.y - a.y;
      const length = Math.hypot(dx, dy) || 1;
      out.push({x: points[i].x - dy / length * offset, y: points[i].y + dx / length * offset});
    }
    return out;
  }

  function packetText(packet) {
    if (!packet) return "";
    const ports = packet.sport !== undefined ? `:${packet.sport} → ` : " → ";
    return `${packet.src}${ports}${packet.dst}${packet.dport !== undefined ? ":" + packet.dport : ""} ${packet.proto}`;
  }

  // ---------------------------------------------------------------- the scene

  // Draws the topology and, optionally, the paths of one flow; returns the svg element.
  function scene(fullTopology, options) {
    const {flow, onHost, selectable, paneKey, focus} = options || {};
    // Room below the picture (and below each row of a focused one) for the paths that bow between clusters.
    const bowRoom = flow ? 40 + 16 * flow.paths.length : 0;
    const focused = focus && flow && flow.paths.length ? focusOn(fullTopology, flow, bowRoom) : null;
    const topology = focused ? focused.topology : fullTopology;
    const touched = focused ? focused.touched : null;
    const height = topology.height + bowRoom;
    const home = focused ? focused.home : {x: 0, y: 0, w: topology.width, h: height};
    const root = svg("svg", {"class": "scene", "data-pane": paneKey || "main", viewBox: `${home.x} ${home.y} ${home.w} ${home.h}`,
      preserveAspectRatio: "xMidYMid meet", "data-focus": focused ? focused.mode : null,
      "data-hidden-clusters": focused ? fullTopology.clusters.length - topology.clusters.length : null});
    const onFlow = new Set();
    if (flow) {
      for (const path of flow.paths) {
        for (const direction of ["forward", "reply"]) (path[direction] ? path[direction].hops : []).forEach(h => onFlow.add(h.node));
      }
    }
    const aside = name => touched && !touched.has(name);
    const world = svg("g", {"class": "world"});
    root.append(world);
    const hosts = hostIndex(topology);
    const clusters = new Map(topology.clusters.map(c => [c.name, c]));

    const links = svg("g", {"class": "links"});
    const unconnectedShown = state.showUnconnected === null ? topology.unconnected.length <= 30 : state.showUnconnected;
    if (unconnectedShown) {
      for (const pair of topology.unconnected) {
        const a = clusters.get(pair.left), b = clusters.get(pair.right);
        const p = border(a, centre(b)), q = border(b, centre(a));
        links.append(svg("line", {"class": "unconnected", x1: p.x, y1: p.y, x2: q.x, y2: q.y, "data-left": pair.left, "data-right": pair.right},
        ));
        const label = svg("text", {"class": "unconnected-label", x: (p.x + q.x) / 2, y: (p.y + q.y) / 2 + 12, "text-anchor": "middle"},
          "unconnected (policy)");
        label.append(svg("title", {}, `${pair.left} – ${pair.right}: ${pair.reason}`));
        links.append(label);
      }
    }
    // A (nearly) full mesh of cables would hide everything else: drawn faint and unlabelled (hover names them).
    const dense = topology.cables.length > 2 * topology.clusters.length;
    // Cables between gateways that would lie on one another (a cluster's gateways in one row, the
    // remote ones level with them) each bow by their own depth, and the paths along them with them.
    cableBends = bendsApart(drawnGatewayPairs(topology, clusters, hosts, flow));
    for (const cable of topology.cables) {
      const a = clusters.get(cable.left), b = clusters.get(cable.right);
      // From the gateway that terminates it to the remote one where both are drawn; else ELK's route
      // where it gave one (around the clusters in between), else straight between the boxes.
      const curve = cableCurve(cableGateways(cable, clusters, hosts, flow));
      const route = curve ? [curve.from, curve.to] : (cable.route && cable.route.length >= 2 ? cable.route.map(([x, y]) => ({x, y}))
        : [border(a, centre(b)), border(b, centre(a))]);
      const middle = Math.floor((route.length - 1) / 2);
      const p = curve ? curvePoint(curve, 0.5) : route[middle], q = curve ? p : route[middle + 1];
      const line = svg("path", {"class": `cable ${cable.driver}` + (dense ? " dense" : "") + (aside(cable.left) || aside(cable.right) ? " aside" : ""), fill: "none",
        d: curve ? curveD(curve) : "M" + route.map(r => `${r.x},${r.y}`).join(" L"), "data-left": cable.left, "data-right": cable.right});
      line.append(svg("title", {}, `${cable.left} – ${cable.right}: ${cable.driver}`
        + (cable.connectivityPolicy ? `, allowed by ${cable.connectivityPolicy}` : "")
        + (cable.connectionPolicy !== undefined ? `, connection policy #${cable.connectionPolicy}` : ", default cable driver")));
      links.append(line);
      if (!dense) links.append(svg("text", {"class": "cable-label", x: (p.x + q.x) / 2, y: (p.y + q.y) / 2 - 6, "text-anchor": "middle"}, cable.driver));
    }
    if (flow) links.append(...otherGatewayCables(topology, clusters, hosts, flow, dense, aside));

    const boxes = svg("g", {"class": "clusters"});
    for (const cluster of topology.clusters) {
      const g = svg("g", {"class": "cluster" + (aside(cluster.name) ? " aside" : ""), "data-name": cluster.name});
      g.append(svg("rect", {"class": "box", x: cluster.x, y: cluster.y, width: cluster.w, height: cluster.h}));
      const left = cluster.x + 10;
      g.append(svg("text", {"class": "name", x: left, y: cluster.y + 17}, `${cluster.name}`));
      g.append(svg("text", {"class": "meta", x: left + 9.5 * cluster.name.length + 12, y: cluster.y + 17}, cluster.cni
        + (cluster.multiActiveGateways ? " · multi-active" : "")));
      g.append(svg("text", {"class": "meta", x: left, y: cluster.y + 32},
        `pods ${cluster.podCIDRs.join(",")} services ${cluster.serviceCIDRs.join(",")}`));
      if (cluster.globalCIDR) g.append(svg("text", {"class": "meta global", x: left, y: cluster.y + 45}, `global ${cluster.globalCIDR}`));
      if (cluster.exports.length) {
        const shown = cluster.exports.slice(0, 2).map(e => e.name + (e.globalIP ? ` (${e.globalIP})` : e.clusterIP ? ` (${e.clusterIP})` : ""));
        const more = cluster.exports.length > 2 ? ` +${cluster.exports.length - 2}` : "";
        const text = svg("text", {"class": "meta exports", x: left, y: cluster.y + 58}, `exports ${shown.join(", ")}${more}`);
        text.append(svg("title", {}, cluster.exports.map(e => e.name).join("\n")));
        g.append(text);
      }
      for (const tunnel of cluster.tunnels) {
        const a = hosts.get(tunnel.from), b = hosts.get(tunnel.to);
        if (!a || !b || a.x === undefined || b.x === undefined) continue;
        const p = border(a, centre(b)), q = border(b, centre(a));
        const line = svg("line", {"class": "tunnel", x1: p.x, y1: p.y, x2: q.x, y2: q.y});
        line.append(svg("title", {}, `${tunnel.device}: ${tunnel.from} → ${tunnel.to}`));
        g.append(line);
      }
      const firstTunnel = cluster.tunnels.find(t => t.device === "vx-submariner");
      if (firstTunnel && hosts.get(firstTunnel.to)) {
        const gw = hosts.get(firstTunnel.to);
        g.append(svg("text", {"class": "tunnel-label", x: gw.x + gw.w + 4, y: gw.y - 4}, "vx-submariner"));
      }
      for (const host of cluster.hosts) {
        if (host.x === undefined) continue;
        const h = svg("g", {"class": `host ${host.kind} ${host.state}` + (selectable && selectable(host) ? " clickable" : "")
            + (onFlow.has(host.id) ? " on-flow" : "") + (aside(cluster.name) ? " aside" : ""),
          "data-id": host.id, "data-state": host.state, transform: `translate(${host.x},${host.y})`});
        h.append(svg("rect", {width: host.w, height: host.h}));
        const label = host.kind === "pod" ? host.name : host.name + (host.kind === "gateway" ? ` · ${host.state}` : "");
        h.append(svg("text", {"class": "name", x: 8, y: 14}, label));
        if (host.ip) h.append(svg("text", {"class": "ip", x: 8, y: 27}, host.ip));
        h.append(svg("title", {}, [host.id, host.kind + (host.kind === "gateway" ? " (" + host.state + ")" : ""),
          host.ip ? "ip " + host.ip : "", host.cniIP ? "cni " + host.cniIP : "", host.publicIP ? "public " + host.publicIP : ""]
          .filter(Boolean).join("\n")));
        if (onHost) h.addEventListener("click", () => onHost(host));
        g.append(h);
      }
      boxes.append(g);
    }
    // Cluster boxes first, then cables and paths, then hosts over them, then the hop markers.
    const clusterBoxes = svg("g", {"class": "cluster-boxes"});
    const hostLayer = svg("g", {"class": "hosts"});
    for (const g of [...boxes.children]) {
      for (const h of [...g.querySelectorAll(".host")]) hostLayer.append(h);
      clusterBoxes.append(g);
    }
    world.append(clusterBoxes, links);
    const drawn = flow ? drawPaths(flow, hosts, paneKey) : null;
    if (drawn) world.append(drawn.lines);
    world.append(hostLayer);
    if (drawn) world.append(drawn.markers, natBadges(flow, hosts));
    // Typed flows are all "ad-hoc": their ends tell them apart.
    root.zoomControls = panZoom(root, home, [state.view, paneKey || "main", flow ? `${flow.name} ${flow.from} ${flow.to}` : "", focused ? focused.mode : ""].join("|"));
    root.zoomControls.append(...pictureExports(root, flow));
    return root;
  }

  // The clusters a flow's hops are in, in the order its packets first reach them.
  function clustersOf(flow) {
    const names = new Set();
    for (const path of flow.paths) {
      for (const direction of ["forward", "reply"]) (path[direction] ? path[direction].hops : []).forEach(h => names.add(h.node.split("/")[0]));
    }
    return names;
  }

  // The size the picture gets on the page: the canvas, less a pane's title.
  function canvasSize() {
    const rect = document.getElementById("canvas").getBoundingClientRect();
    return {w: Math.max(1, rect.width), h: Math.max(1, rect.height)};
  }

  // How many screen pixels one unit of the picture gets when `box` fills the canvas.
  function scaleOf(box, size) {
    return Math.min(size.w / box.w, size.h / box.h);
  }

  // Zoom-to-flow: what the flow view first shows of a flow. Where the clusters the flow touches, framed
  // where they stand, come out at full size (a unit of the picture at least a pixel, so the 11 px hop
  // labels read), they are framed and the others dimmed. Where they do not (at 50 clusters a flow from
  // the first to the last spans the whole set), they are drawn side by side in a grid of their own,
  // the columns chosen to fill the canvas best, and the others left out: the sidebar says how many,
  // and "every cluster in place" brings them back.
  function focusOn(topology, flow, bowRoom) {
    const touched = clustersOf(flow);
    const clusters = topology.clusters.filter(c => touched.has(c.name));
    if (!clusters.length) return null;
    const size = canvasSize();
    const margin = 20;
    const x = Math.min(...clusters.map(c => c.x)) - margin, y = Math.min(...clusters.map(c => c.y)) - margin;
    const framed = {x, y, w: Math.max(...clusters.map(c => c.x + c.w)) + margin - x, h: Math.max(...clusters.map(c => c.y + c.h)) + margin + bowRoom - y};
    // Not closer than 1.6 times full size: a flow inside one cluster keeps some of the picture around it.
    const closest = 1.6;
    if (scaleOf(framed, size) > closest) {
      const w = size.w / closest, h = size.h / closest;
      framed.x -= (w - framed.w) / 2;
      framed.y -= (h - framed.h) / 2;
      framed.w = w;
      framed.h = h;
    }
    const inPlace = {mode: "framed", topology, touched, home: framed};
    if (state.everyCluster || scaleOf(framed, size) >= 1) return inPlace;
    const ordered = [...touched].map(name => clusters.find(c => c.name === name)).filter(Boolean);
    const gap = 60;
    let best = null;
    for (let columns = 1; columns <= ordered.length; columns++) {
      const widths = [], heights = [];
      ordered.forEach((c, i) => {
        const col = i % columns, row = Math.floor(i / columns);
        widths[col] = Math.max(widths[col] || 0, c.w);
        heights[row] = Math.max(heights[row] || 0, c.h);
      });
      const w = widths.reduce((a, b) => a + b, 0) + gap * (widths.length - 1) + 2 * margin;
      const h = heights.reduce((a, b) => a + b, 0) + (gap + bowRoom) * (heights.length - 1) + 2 * margin;
      const scale = scaleOf({w, h: h + bowRoom}, size);
      if (!best || scale > best.scale) best = {columns, widths, heights, w, h, scale};
    }
    // Moving clusters costs the reader the picture they know: only for a clearly larger one.
    if (best.scale < 1.2 * scaleOf(framed, size)) return inPlace;
    const moved = ordered.map((c, i) => {
      const col = i % best.columns, row = Math.floor(i / best.columns);
      const dx = margin + best.widths.slice(0, col).reduce((a, b) => a + b + gap, 0) - c.x;
      const dy = margin + best.heights.slice(0, row).reduce((a, b) => a + b + gap + bowRoom, 0) - c.y;
      return {...c, x: c.x + dx, y: c.y + dy, hosts: c.hosts.map(h => h.x === undefined ? h : {...h, x: h.x + dx, y: h.y + dy})};
    });
    // Cables between the clusters shown, straight: ELK routed them around places that are no longer there.
    const shown = {...topology, width: best.w, height: best.h, clusters: moved,
      cables: topology.cables.filter(c => touched.has(c.left) && touched.has(c.right)).map(c => ({...c, route: null})),
      unconnected: topology.unconnected.filter(p => touched.has(p.left) && touched.has(p.right))};
    return {mode: "side-by-side", topology: shown, touched, home: {x: 0, y: 0, w: best.w, h: best.h + bowRoom}};
  }

  // Each path of the flow enters and leaves a host at its own slot on the host's lower edge (forward
  // and reply side by side), so branches through the same hosts stay apart; hosts are drawn over the
  // lines and the hop markers over the hosts.
  function drawPaths(flow, hosts, paneKey) {
    const lines = svg("g", {"class": "paths", "data-flow": flow.name});
    const markers = svg("g", {"class": "hop-markers"});
    const slots = Math.max(1, flow.paths.length * 2);
    const slot = (host, index, direction) => {
      const spacing = Math.min(10, (host.w - 16) / slots);
      const k = index * 2 + (direction === "reply" ? 1 : 0);
      return {x: host.x + host.w / 2 + (k - (slots - 1) / 2) * spacing, y: host.y + host.h - 4};
    };
    flow.paths.forEach((path, index) => {
      const colour = pathColour(index);
      for (const direction of ["forward", "reply"]) {
        const hops = path[direction] ? path[direction].hops : null;
        if (!hops || !hops.length) continue;
        const points = [];
        const hopOfPoint = [];
        let previous = null;
        hops.forEach((hop, hopIndex) => {
          const host = hosts.get(hop.node);
          if (!host || host.x === undefined || hop.node === previous) return;
          previous = hop.node;
          points.push(slot(host, index, direction));
          hopOfPoint.push(hopIndex);
        });
        if (!points.length) continue;
        const dimmed = state.selected && state.selected.path !== index;
        // Between clusters the branches bow below the boxes, each by its own depth, so that four paths
        // over two cables read as four lines rather than one. An arrowhead halfway along each segment
        // says which way the packet goes (the tangent of the bow halfway is the chord's direction).
        let d = `M${points[0].x},${points[0].y}`;
        const arrows = [];
        for (let i = 1; i < points.length; i++) {
          const a = points[i - 1], b = points[i];
          const crossing = hops[hopOfPoint[i - 1]].node.split("/")[0] !== hops[hopOfPoint[i]].node.split("/")[0];
          let middle = {x: (a.x + b.x) / 2, y: (a.y + b.y) / 2};
          let heading = [a, b];
          const along = crossing && cableCurve([hosts.get(hops[hopOfPoint[i - 1]].node), hosts.get(hops[hopOfPoint[i]].node)]);
          if (along) {
            d += ` L${curveD(along).slice(1)} L${b.x},${b.y}`;
            // Paths sharing a cable share its line: each one's arrow at its own place along the middle.
            const t = 0.3 + 0.4 * (index * 2 + (direction === "reply" ? 1 : 0) + 0.5) / slots;
            middle = curvePoint(along, t);
            heading = [middle, curvePoint(along, t + 0.01)];
          } else if (crossing) {
            const depth = 34 + index * 16 + (direction === "reply" ? 7 : 0);
            const control = {x: (a.x + b.x) / 2, y: Math.max(a.y, b.y) + depth};
            d += ` Q${control.x},${control.y} ${b.x},${b.y}`;
            middle = {x: (a.x + 2 * control.x + b.x) / 4, y: (a.y + 2 * control.y + b.y) / 4};
          } else {
            d += ` L${b.x},${b.y}`;
          }
          if (Math.hypot(b.x - a.x, b.y - a.y) > 24) {
            const angle = Math.atan2(heading[1].y - heading[0].y, heading[1].x - heading[0].x) * 180 / Math.PI;
            arrows.push(svg("path", {"class": `path-arrow ${direction}` + (dimmed ? " dimmed" : ""), d: "M-5,-4 L4,0 L-5,4 Z", fill: colour,
              "data-path": index, "data-direction": direction, transform: `translate(${middle.x},${middle.y}) rotate(${angle})`}));
          }
        }
        lines.append(svg("path", {"class": `flow-path ${direction}` + (dimmed ? " dimmed" : ""), "data-path": index,
          "data-direction": direction, stroke: colour, d}), ...arrows);
        points.forEach((p, i) => {
          const hopIndex = hopOfPoint[i];
          const hop = hops[hopIndex];
          const dropped = hop.steps.some(s => s.kind === "drop");
          const isSelected = state.selected && state.selected.path === index && state.selected.direction === direction
            && state.selected.hop === hopIndex && (paneKey || "main") === (state.selected.pane || "main");
          const marker = svg("circle", {"class": "hop-marker" + (isSelected ? " selected" : "") + (dropped ? " dropped" : ""),
            cx: p.x, cy: p.y, r: direction === "forward" ? 4.5 : 3.5, fill: colour,
            "data-path": index, "data-direction": direction, "data-hop": hopIndex, "data-node": hop.node});
          marker.append(svg("title", {}, `path ${index + 1} ${direction}, hop ${hopIndex + 1}: ${hop.node}\n${packetText(hop.arrive)}`
            + (hop.depart ? `\n→ ${packetText(hop.depart)}` : "")));
          marker.addEventListener("click", event => {
            event.stopPropagation();
            select(flow, {path: index, direction, hop: hopIndex, pane: paneKey || "main"});
          });
          markers.append(marker);
          // The hop's number beside the forward dots (the reply's would sit on top of them), as the list counts it.
          if (direction === "forward") {
            markers.append(svg("text", {"class": "hop-number" + (dimmed ? " dimmed" : ""), x: p.x, y: p.y + 14, fill: colour,
              "text-anchor": "middle", "data-path": index, "data-hop": hopIndex}, String(hopIndex + 1)));
          }
        });
      }
      const drop = dropPoint(path);
      if (drop) {
        const host = hosts.get(drop.hop.node);
        if (host && host.x !== undefined) {
          const p = slot(host, index, drop.direction);
          const mark = svg("g", {"class": "drop-mark" + (dimmed(index) ? " dimmed" : ""), "data-path": index, "data-direction": drop.direction,
            "data-node": drop.hop.node, transform: `translate(${p.x + 12},${p.y + 12})`});
          // The reason in lines of about 28 characters, so it stays near the host it explains.
          const text = svg("text", {x: 9, y: 4});
          const lines = [];
          for (const word of shortReason(drop.reason).split(" ")) {
            if (lines.length && (lines[lines.length - 1] + " " + word).length <= 28) lines[lines.length - 1] += " " + word;
            else lines.push(word);
          }
          lines.forEach((line, i) => text.append(svg("tspan", {x: 9, dy: i === 0 ? 0 : 13}, line)));
          mark.append(svg("path", {d: "M-5,-5 L5,5 M-5,5 L5,-5"}), text,
            svg("title", {}, `path ${index + 1} ${drop.direction}: ${path.disposition} at ${drop.hop.node}\n${drop.reason}`));
          markers.append(mark);
        }
      }
    });
    return {lines, markers};
  }

  // ---------------------------------------------------------------- NAT badges

  // A badge beside each host where a hop of the flow rewrites an address, one per kind of translation
  // (SNAT, DNAT, un-SNAT, un-DNAT), in rows just above the host and no wider than it (the next host may
  // stand close beside it); hovering one lists each rewrite as before → after, with the paths that meet
  // it. The same translations the flow table lists.
  function natBadges(flow, hosts) {
    const layer = svg("g", {"class": "nat-badges"});
    const byHost = new Map();
    flow.paths.forEach((path, index) => {
      for (const t of translations(path)) {
        if (!byHost.has(t.at)) byHost.set(t.at, new Map());
        const kinds = byHost.get(t.at);
        if (!kinds.has(t.kind)) kinds.set(t.kind, new Map());
        const line = `${t.field} ${t.before} → ${t.after}` + (t.direction === "reply" ? " (reply)" : "");
        const rewrites = kinds.get(t.kind);
        if (!rewrites.has(line)) rewrites.set(line, []);
        rewrites.get(line).push(index + 1);
      }
    });
    for (const [node, kinds] of byHost) {
      const host = hosts.get(node);
      if (!host || host.x === undefined) continue;
      let row = 0, used = 0;
      for (const [kind, rewrites] of kinds) {
        const width = 7 * kind.length + 8;
        if (used > 0 && used + width > host.w) {
          row++;
          used = 0;
        }
        const badge = svg("g", {"class": "nat-badge", "data-node": node, "data-kind": kind,
          transform: `translate(${host.x + host.w - used - width},${host.y - 15 - row * 15})`});
        used += width + 3;
        badge.append(svg("rect", {width, height: 13, rx: 3}), svg("text", {x: width / 2, y: 10, "text-anchor": "middle"}, kind),
          svg("title", {}, `${kind} at ${node}\n` + [...rewrites].map(([line, paths]) =>
            `${line}` + (flow.paths.length > 1 ? `  (path${paths.length > 1 ? "s" : ""} ${paths.join(", ")})` : "")).join("\n")));
        layer.append(badge);
      }
    }
    return layer;
  }

  // ---------------------------------------------------------------- cables between gateways

  // The gateways a cable ends at, [left, right]: the pair a path of the flow crosses it between, else
  // each cluster's first active gateway (a single-active cluster has one), else null where a side has none.
  function cableGateways(cable, clusters, hosts, flow) {
    const used = flow ? gatewayCrossings(flow, hosts).get(cableKey(cable.left, cable.right)) : null;
    if (used && used.length) return orderedPair(used[0], cable.left);
    const elected = name => {
      const cluster = clusters.get(name);
      const gateways = cluster ? cluster.hosts.filter(h => h.kind === "gateway" && h.x !== undefined) : [];
      return gateways.find(h => h.state === "active") || null;
    };
    const left = elected(cable.left), right = elected(cable.right);
    return left && right ? [left, right] : null;
  }

  function cableKey(one, other) {
    return [one, other].sort().join("\u0000");
  }

  function orderedPair(pair, leftCluster) {
    return pair[0].id.split("/")[0] === leftCluster ? pair : [pair[1], pair[0]];
  }

  // Every pair of gateways of two clusters that a hop of the flow goes straight between, by cable (the
  // clusters' names, sorted): the cable's ends as that path sees them. A multi-active cluster's paths
  // may cross one cable between different pairs.
  function gatewayCrossings(flow, hosts) {
    const found = new Map();
    for (const path of flow.paths) {
      for (const direction of ["forward", "reply"]) {
        // Between hosts drawn, as drawPaths joins them: a host not drawn is stepped over.
        const drawn = (path[direction] ? path[direction].hops : []).map(h => hosts.get(h.node)).filter(h => h && h.x !== undefined);
        for (let i = 1; i < drawn.length; i++) {
          const pair = [drawn[i - 1], drawn[i]];
          if (!cableSpan(pair)) continue;
          const key = cableKey(pair[0].id.split("/")[0], pair[1].id.split("/")[0]);
          if (!found.has(key)) found.set(key, []);
          const known = found.get(key);
          if (!known.some(k => (k[0] === pair[0] && k[1] === pair[1]) || (k[0] === pair[1] && k[1] === pair[0]))) known.push(pair);
        }
      }
    }
    return found;
  }

  // The straight line between two drawn gateways of different clusters, from border to border: both a
  // cable's line and the segment of a path that crosses it, so the path lies on its cable. Null for
  // anything else (a router on the way, a host not drawn).
  function cableSpan(pair) {
    if (!pair) return null;
    const [a, b] = pair;
    if (!a || !b || a.kind !== "gateway" || b.kind !== "gateway" || a.x === undefined || b.x === undefined) return null;
    if (a.id.split("/")[0] === b.id.split("/")[0]) return null;
    return [border(a, centre(b)), border(b, centre(a))];
  }

  // How far each line between two gateways bows from its chord (px, keyed by the pair), for the scene
  // being drawn: set before its cables, read by the cables and by the paths that run along them.
  let cableBends = new Map();
  const BEND = 18;

  function pairKey(pair) {
    return [pair[0].id, pair[1].id].sort().join("\u0000");
  }

  // The line of a cable between two gateways, as drawn: from border to border, through `control` (a
  // quadratic curve) where it bows, so that it does not lie on another cable. Null as cableSpan.
  function cableCurve(pair) {
    const span = cableSpan(pair);
    if (!span) return null;
    const [from, to] = span;
    const bend = cableBends.get(pairKey(pair)) || 0;
    if (!bend) return {from, to, control: null};
    // The normal of the chord taken in the pair's sorted order, so a cable bows the same way whichever
    // end a path leaves from; the curve's middle lies `bend` from the chord's.
    const [p, q] = pair[0].id < pair[1].id ? [from, to] : [to, from];
    const length = Math.hypot(q.x - p.x, q.y - p.y) || 1;
    const normal = {x: -(q.y - p.y) / length, y: (q.x - p.x) / length};
    return {from, to, control: {x: (from.x + to.x) / 2 + 2 * bend * normal.x, y: (from.y + to.y) / 2 + 2 * bend * normal.y}};
  }

  function curveD(curve) {
    return curve.control ? `M${curve.from.x},${curve.from.y} Q${curve.control.x},${curve.control.y} ${curve.to.x},${curve.to.y}`
      : `M${curve.from.x},${curve.from.y} L${curve.to.x},${curve.to.y}`;
  }

  function curvePoint(curve, t) {
    const c = curve.control || {x: (curve.from.x + curve.to.x) / 2, y: (curve.from.y + curve.to.y) / 2};
    const u = 1 - t;
    return {x: u * u * curve.from.x + 2 * u * t * c.x + t * t * curve.to.x, y: u * u * curve.from.y + 2 * u * t * c.y + t * t * curve.to.y};
  }

  // Every pair of gateways the scene joins by a cable's line: each cable's own pair, and for the flow
  // drawn each other pair of gateways its paths cross that cable between.
  function drawnGatewayPairs(topology, clusters, hosts, flow) {
    const pairs = [];
    const crossings = flow ? gatewayCrossings(flow, hosts) : new Map();
    for (const cable of topology.cables) {
      const own = cableGateways(cable, clusters, hosts, flow);
      if (cableSpan(own)) pairs.push(own);
      for (const pair of (crossings.get(cableKey(cable.left, cable.right)) || []).slice(1)) pairs.push(pair);
    }
    return pairs;
  }

  // Gives each line that would lie on another (the same straight line, overlapping) a bend of its own:
  // 0 for the first of such a group, then one side and the other, further each time.
  function bendsApart(pairs) {
    const lines = [];
    const seen = new Set();
    for (const pair of pairs) {
      const key = pairKey(pair);
      if (seen.has(key)) continue;
      seen.add(key);
      const [from, to] = cableSpan(pair);
      lines.push({key, from, to});
    }
    lines.sort((a, b) => a.key < b.key ? -1 : a.key > b.key ? 1 : 0);
    const group = lines.map((_, i) => i);
    const find = i => group[i] === i ? i : (group[i] = find(group[i]));
    for (let i = 0; i < lines.length; i++) {
      for (let j = i + 1; j < lines.length; j++) {
        if (onOneAnother(lines[i], lines[j])) group[find(j)] = find(i);
      }
    }
    const bends = new Map();
    const counted = new Map();
    lines.forEach((line, i) => {
      const root = find(i);
      const n = counted.get(root) || 0;
      counted.set(root, n + 1);
      bends.set(line.key, n === 0 ? 0 : (n % 2 ? 1 : -1) * Math.ceil(n / 2) * BEND);
    });
    return bends;
  }

  // Whether two straight lines would be drawn on one another: both ends of each within 3 px of the
  // other's line, and an overlap longer than 8 px along it.
  function onOneAnother(a, b) {
    const distance = (p, line) => {
      const dx = line.to.x - line.from.x, dy = line.to.y - line.from.y;
      const length = Math.hypot(dx, dy) || 1;
      return Math.abs(dy * (p.x - line.from.x) - dx * (p.y - line.from.y)) / length;
    };
    if (Math.max(distance(b.from, a), distance(b.to, a), distance(a.from, b), distance(a.to, b)) > 3) return false;
    const dx = a.to.x - a.from.x, dy = a.to.y - a.from.y;
    const length = Math.hypot(dx, dy) || 1;
    const along = p => ((p.x - a.from.x) * dx + (p.y - a.from.y) * dy) / length;
    const [low, high] = [along(b.from), along(b.to)].sort((x, y) => x - y);
    return Math.min(length, high) - Math.max(0, low) > 8;
  }

  // A cable a multi-active cluster's paths cross between more than one pair of gateways: a line for each
  // pair past the first (scene draws that one), so every path segment between clusters lies on a cable.
  function otherGatewayCables(topology, clusters, hosts, flow, dense, aside) {
    const lines = [];
    const crossings = gatewayCrossings(flow, hosts);
    for (const cable of topology.cables) {
      const pairs = crossings.get(cableKey(cable.left, cable.right)) || [];
      for (const pair of pairs.slice(1)) {
        const line = svg("path", {"class": `cable ${cable.driver}` + (dense ? " dense" : "") + (aside(cable.left) || aside(cable.right) ? " aside" : ""),
          fill: "none", d: curveD(cableCurve(orderedPair(pair, cable.left))), "data-left": cable.left, "data-right": cable.right});
        line.append(svg("title", {}, `${pair[0].id} – ${pair[1].id}: ${cable.driver}`));
        lines.push(line);
      }
    }
    return lines;
  }

  function dimmed(index) {
    return !!state.selected && state.selected.path !== index;
  }

  // Where a path that was not delivered ends: the hop with the drop step, else (no route, unreachable)
  // the last hop it reached, with the reason.
  function dropPoint(path) {
    if (path.disposition === "delivered") return null;
    let last = null;
    for (const direction of ["forward", "reply"]) {
      const hops = path[direction] ? path[direction].hops : [];
      for (const hop of hops) {
        const step = hop.steps.find(s => s.kind === "drop");
        if (step) return {direction, hop, reason: step.reason || path.reason || path.disposition};
      }
      if (hops.length) last = {direction, hop: hops[hops.length - 1], reason: path.reason || path.disposition};
    }
    return last;
  }

  // A drop reason short enough to sit beside its ✕: the clause after the last colon when it says
  // enough on its own ("no ClusterConnectivityPolicy connects client2 and client1"), cut at 64 characters.
  function shortReason(reason) {
    const colon = reason.lastIndexOf(": ");
    const tail = colon >= 0 && reason.length - colon > 14 ? reason.slice(colon + 2) : reason;
    return tail.length > 64 ? tail.slice(0, 63) + "…" : tail;
  }

  // Wheel zooms around the pointer, dragging pans, the buttons zoom around the centre or fit the
  // picture's first frame again; all only change the viewBox. The view is kept under `key` (view, pane,
  // flow), so the redraw a hop selection or a save causes shows the same part of the picture.
  const zooms = new Map();

  function panZoom(root, home, key) {
    let view = zooms.get(key) || {...home};
    const apply = () => {
      root.setAttribute("viewBox", `${view.x} ${view.y} ${view.w} ${view.h}`);
      zooms.set(key, view);
    };
    apply();
    const zoomAround = (factor, fx, fy) => {
      const w = view.w * factor, h = view.h * factor;
      view = {x: view.x + (view.w - w) * fx, y: view.y + (view.h - h) * fy, w, h};
      apply();
    };
    root.addEventListener("wheel", event => {
      event.preventDefault();
      const rect = root.getBoundingClientRect();
      zoomAround(event.deltaY > 0 ? 1.15 : 1 / 1.15, (event.clientX - rect.left) / rect.width, (event.clientY - rect.top) / rect.height);
    }, {passive: false});
    let drag = null;
    root.addEventListener("mousedown", event => { drag = {x: event.clientX, y: event.clientY, view: {...view}}; });
    root.addEventListener("mouseup", () => { drag = null; });
    root.addEventListener("mouseleave", () => { drag = null; });
    root.addEventListener("mousemove", event => {
      if (!drag) return;
      const rect = root.getBoundingClientRect();
      const scale = Math.max(view.w / rect.width, view.h / rect.height);
      view = {...drag.view, x: drag.view.x - (event.clientX - drag.x) * scale, y: drag.view.y - (event.clientY - drag.y) * scale};
      apply();
    });
    return el("div", {"class": "zoom-controls"},
      el("button", {"class": "zoom", "data-zoom": "in", title: "zoom in", onclick: () => zoomAround(1 / 1.4, 0.5, 0.5), text: "+"}),
      el("button", {"class": "zoom", "data-zoom": "out", title: "zoom out", onclick: () => zoomAround(1.4, 0.5, 0.5), text: "−"}),
      el("button", {"class": "zoom", "data-zoom": "fit", title: "fit: the picture's first frame", onclick: () => { view = {...home}; apply(); }, text: "fit"}));
  }

  // ---------------------------------------------------------------- picture export

  // What an SVG element's look depends on, copied from its computed style into its style attribute:
  // the picture's colours and fonts come from app.css, which a saved SVG no longer has.
  const EXPORTED_STYLE = ["fill", "fill-opacity", "stroke", "stroke-width", "stroke-dasharray", "stroke-opacity", "stroke-linecap",
    "stroke-linejoin", "opacity", "font-family", "font-size", "font-weight", "font-style", "text-anchor", "paint-order", "visibility", "display"];

  // The picture as shown (its current viewBox, so what the zoom frames), as a standalone SVG document:
  // styles inlined, the size it has on the page, a white background.
  function standaloneSvg(root) {
    const copy = root.cloneNode(true);
    const originals = [root, ...root.querySelectorAll("*")], copies = [copy, ...copy.querySelectorAll("*")];
    originals.forEach((original, i) => {
      if (original.namespaceURI !== SVG || original.tagName === "title") return;
      const style = getComputedStyle(original);
      copies[i].setAttribute("style", EXPORTED_STYLE.map(name => `${name}:${style.getPropertyValue(name)}`).join(";"));
    });
    const rect = root.getBoundingClientRect();
    const [x, y, w, h] = root.getAttribute("viewBox").split(" ").map(Number);
    copy.setAttribute("xmlns", SVG);
    copy.setAttribute("width", Math.round(rect.width));
    copy.setAttribute("height", Math.round(rect.height));
    copy.insertBefore(svg("rect", {x, y, width: w, height: h, fill: "#fff"}), copy.firstChild);
    return `<?xml version="1.0" encoding="UTF-8"?>\n` + new XMLSerializer().serializeToString(copy);
  }

  // The SVG drawn on a canvas at twice its size, as a PNG's data: address.
  function pngOf(svgText) {
    return new Promise((resolve, reject) => {
      const image = new Image();
      image.onload = () => {
        const canvas = document.createElement("canvas");
        canvas.width = 2 * image.width;
        canvas.height = 2 * image.height;
        const context = canvas.getContext("2d");
        context.scale(2, 2);
        context.drawImage(image, 0, 0);
        resolve(canvas.toDataURL("image/png"));
      };
      image.onerror = () => reject(new Error("the picture could not be drawn on a canvas"));
      image.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svgText)}`;
    });
  }

  // Two links beside the zoom buttons that save the picture as shown, as SVG or PNG. The file is made
  // on click (the picture may have been zoomed since it was drawn); the link then follows its own new
  // address, which stays on it.
  function pictureExports(root, flow) {
    const name = [state.doc.name || "periscope", state.view, flow ? flow.name : ""].filter(Boolean).join("-").replace(/[^A-Za-z0-9._-]+/g, "_");
    const link = (kind, make) => {
      const a = el("a", {"class": "zoom export", id: `export-${kind}`, "data-export": kind, href: "#", download: `${name}.${kind}`,
        title: `save the picture as shown, as ${kind.toUpperCase()}`, text: kind.toUpperCase()});
      a.addEventListener("click", event => {
        if (a.dataset.made === "now") {
          a.dataset.made = "yes";
          return;
        }
        event.preventDefault();
        Promise.resolve().then(() => make(standaloneSvg(root))).then(href => {
          a.href = href;
          a.dataset.made = "now";
          a.click();
        }).catch(e => { a.title = e.message; });
      });
      return a;
    };
    return [link("svg", text => `data:image/svg+xml;charset=utf-8,${encodeURIComponent(text)}`), link("png", pngOf)];
  }

  // ---------------------------------------------------------------- hop details

  function select(flow, selection) {
    state.selected = selection;
    renderCanvasOnly();
    showHop(flow, selection);
    document.querySelectorAll(".hop-list li[data-hop]").forEach(li => {
      li.classList.toggle("selected", Number(li.dataset.path) === selection.path && li.dataset.direction === selection.direction
        && Number(li.dataset.hop) === selection.hop);
    });
  }

  function packetTable(rows) {
    const table = el("table", {"class": "packet"},
      el("tr", {}, el("th", {text: ""}), FIELDS.map(f => el("th", {text: f}))));
    for (const row of rows) {
      const tr = el("tr", {"data-row": row.label}, el("th", {text: row.label}));
      for (const f of FIELDS) {
        const value = row.packet && row.packet[f] !== undefined ? String(row.packet[f]) : "";
        const changed = row.before && row.packet && row.before[f] !== row.packet[f] && value !== "";
        tr.append(el("td", {"class": "packet-field" + (changed ? " changed" : ""), "data-field": f, text: value}));
      }
      table.append(tr);
    }
    return table;
  }

  // Whether two packets are one connection's, before and after a translation (which rewrites one end).
  function sameConnection(a, b) {
    return !!a && !!b && a.proto === b.proto && (a.src === b.src || a.dst === b.dst);
  }

  function kv(label, value) {
    return el("div", {"class": "kv"}, el("b", {text: label + " "}), value);
  }

  // A cable's outer UDP port; bare ESP (IP protocol 50, a Libreswan cable without NAT) has none.
  function outerPort(step) {
    return step.port !== undefined ? `, port ${step.port}` : ", IP protocol 50";
  }

  function stepCard(step, before) {
    const card = el("div", {"class": "step", "data-kind": step.kind}, el("span", {"class": `kind ${step.kind}`, text: step.kind}));
    if (step.rule) {
      card.append(kv("table", `${step.table}, chain ${step.chain}`));
      card.append(el("div", {"class": "rule", text: `-A ${step.chain} ${step.rule}`}));
    }
    switch (step.kind) {
      case "route":
        card.append(kv("table", step.table), el("div", {"class": "rule", text: step.route}), kv("nexthop", step.nexthop + (step.dev ? ` dev ${step.dev}` : "")));
        break;
      case "mark":
        card.append(kv(step.connmark ? "connmark" : "mark", step.connmark || step.mark));
        break;
      case "mss":
        card.append(kv("mss", `${step.from} → ${step.mss} (TCPMSS lowers a SYN's MSS option, never raises it)`));
        break;
      case "snat": case "dnat":
        if (step.conntrack) card.append(kv("conntrack", "established connection: its stored translation applies"));
        break;
      case "unsnat": case "undnat":
        card.append(kv("conntrack", "reply: conntrack reverses the translation"));
        break;
      case "filter":
        card.append(kv("verdict", el("span", {"class": "verdict " + (step.verdict === "drop" ? "dropped" : "delivered"), text: step.verdict})));
        break;
      case "encap": case "decap":
        card.append(kv("encapsulation", `${step.encapsulation} on ${step.device}` + (step.vni !== undefined ? `, VNI ${step.vni}` : "")
          + outerPort(step) + (step.encrypted ? ", encrypted" : "")));
        card.append(kv("outer", `${step.outerSrc} → ${step.outerDst} via ${step.underlay}`));
        if (step.resolution) card.append(kv("resolved by", step.resolution));
        if (step.check) card.append(kv("checked", step.check));
        break;
      case "deliver":
        card.append(kv("to", step.to));
        break;
      case "fragment":
        card.append(kv("fragmented", `larger than ${step.device}'s MTU ${step.mtu} without Don't Fragment: fragments of at most ${step.packet.length} bytes`));
        break;
      case "drop":
        card.append(kv("reason", el("span", {"class": "verdict dropped", text: step.reason})));
        break;
      default:
        break;
    }
    if (step.kind === "encap") {
      card.append(packetTable([{label: "inner", packet: before}, {label: "outer", packet: step.packet}]));
    } else if (step.kind === "decap") {
      card.append(packetTable([{label: "outer", packet: {src: step.outerSrc, dst: step.outerDst, dport: step.port, proto: "udp"}},
        {label: "inner", packet: step.packet}]));
    } else if (sameConnection(before, step.packet)) {
      card.append(packetTable([{label: "after", packet: step.packet, before}]));
    } else {
      // A step on the tunnel's own packet (its UDP before decapsulation): nothing to compare it with.
      card.append(packetTable([{label: "outer", packet: step.packet}]));
    }
    return card;
  }

  const CONNTRACK_STATES = {
    new: "NEW: the first packet of the connection creates the entry",
    established: "ESTABLISHED: the packet belongs to the entry",
    invalid: "INVALID: no entry, and this TCP segment opens none, so nothing here translates it",
    untracked: "UNTRACKED: a -j CT --notrack rule took it out of conntrack",
  };

  function tupleText(packet) {
    return `src=${packet.src} dst=${packet.dst}` + (packet.sport !== undefined ? ` sport=${packet.sport} dport=${packet.dport}` : "");
  }

  // What the host's conntrack made of one packet layer (a tunnel's outer packet has its own), as the
  // simulator recorded it; the entry in `conntrack -L` form, its original tuple being the connection's
  // first packet whichever way this one goes.
  function conntrackCard(lookup) {
    const card = el("div", {"class": "conntrack-layer", "data-state": lookup.state, "data-direction": lookup.direction},
      kv("packet", packetText(lookup.packet)),
      kv("state", CONNTRACK_STATES[lookup.state] + (lookup.entry ? `, ${lookup.direction} direction` : "")));
    const entry = lookup.entry;
    if (entry) {
      card.append(el("div", {"class": "rule conntrack"}, `${lookup.packet.proto} `,
        el("span", {"class": "tuple original", text: tupleText(entry.original)}), " ",
        el("span", {"class": "tuple reply", text: tupleText(entry.reply)}),
        ` mark=${entry.mark}` + (entry.snat ? " [SNAT]" : "") + (entry.dnat ? " [DNAT]" : "")));
      if (!entry.confirmed) card.append(kv("confirmed", "no: the packet ended on this host before leaving it, so the kernel never lists the entry"));
    }
    return card;
  }

  function showHop(flow, selection) {
    const details = document.getElementById("details");
    details.replaceChildren();
    const path = flow.paths[selection.path];
    if (!path) return;
    const hops = path[selection.direction].hops;
    const hop = hops[selection.hop];
    // Through el(), which leaves out a null child: Element.append would write it as the text "null".
    details.append(...el("div", {}, el("h2", {id: "hop-title", text: `${hop.node}`}),
      kv("path", `${selection.path + 1} of ${flow.paths.length}, ${selection.direction}, hop ${selection.hop + 1} of ${hops.length}`),
      (path.choices && path.choices.length) ? kv("branch", path.choices.join("; ")) : null,
      kv("interfaces", `${hop.in || "(generated here)"} → ${hop.out || "(ends here)"}`)).childNodes);
    const section = el("div", {id: "hop-details"});
    section.append(el("h3", {text: "Packet before and after"}),
      packetTable([{label: "arrive", packet: hop.arrive}, {label: "depart", packet: hop.depart, before: hop.arrive}]));
    // The steps' packets are the encapsulated ones while a hop handles the outer packet; the inner one
    // is the last packet before the encap step.
    let before = hop.arrive;
    section.append(el("h3", {text: "Steps"}));
    for (const step of hop.steps) {
      section.append(stepCard(step, before));
      if (step.kind !== "encap") before = step.packet;
    }
    if (hop.conntrack && hop.conntrack.length) {
      section.append(el("h3", {text: "Conntrack"}));
      for (const lookup of hop.conntrack) section.append(conntrackCard(lookup));
    }
    const last = selection.hop === hops.length - 1;
    if (last) {
      section.append(el("h3", {text: "Disposition"}), el("div", {"class": `verdict ${path.disposition}`, id: "disposition",
        text: path.disposition + (path.reason ? `: ${path.reason}` : "")}));
    }
    details.append(section);
  }

  // ---------------------------------------------------------------- views

  function currentFlow() {
    if (state.adHoc) return state.adHoc;
    return state.doc.flows[state.flowIndex] || null;
  }

  // What the shaped links a path crosses add up to (trace JSON "links"), as the text trace says it.
  function linksText(links) {
    const ms = value => `${Math.round(value * 1000) / 1000} ms`;
    const way = f => `${ms(f.delayMs)}${f.jitterMs ? ` (± ${ms(f.jitterMs)})` : ""}`
      + (f.bottleneck ? `, bottleneck ${f.bottleneck.rate} at ${f.bottleneck.link}` : "")
      + `, loss ${Math.round(f.lossPercent * 1000) / 1000}%`;
    return `one-way ${way(links.forward)}` + (links.roundTripMs !== undefined ? `; round trip ${ms(links.roundTripMs)}` : "");
  }

  function pathList(flow) {
    const list = el("ul", {"class": "path-list", id: "paths"});
    if (flow.error) {
      list.append(el("li", {"class": "form-error", text: flow.error}));
      return list;
    }
    flow.paths.forEach((path, index) => {
      const item = el("li", {"class": "path-item", "data-path": index});
      item.append(el("header", {onclick: () => select(flow, {path: index, direction: "forward", hop: 0, pane: "main"})},
        el("span", {"class": "swatch", style: `background:${pathColour(index)}`}),
        el("span", {text: `path ${index + 1}`}),
        el("span", {"class": `disposition ${path.disposition}`, text: path.disposition})));
      if (path.choices && path.choices.length) {
        item.append(el("details", {"class": "choices"}, el("summary", {text: "which multipath choices"}), path.choices.join("; ")));
      }
      if (path.links) item.append(el("div", {"class": "links", text: linksText(path.links)}));
      const hops = el("ul", {"class": "hop-list"});
      for (const direction of ["forward", "reply"]) {
        if (!path[direction]) continue;
        hops.append(el("li", {"class": "direction", text: direction}));
        path[direction].hops.forEach((hop, hopIndex) => {
          const kinds = [...new Set(hop.steps.map(s => s.kind).filter(k => k !== "route"))].join(",");
          hops.append(el("li", {"data-path": index, "data-direction": direction, "data-hop": hopIndex,
              onclick: () => select(flow, {path: index, direction, hop: hopIndex, pane: "main"})},
            el("span", {text: hop.node}), el("span", {"class": "kinds", text: kinds})));
        });
      }
      item.append(hops);
      list.append(item);
    });
    return list;
  }

  function flowChooser() {
    const box = el("div", {});
    box.append(el("h2", {text: "Flow"}));
    if (state.doc.flows.length) {
      const select = el("select", {id: "flow-select", onchange: event => {
        state.flowIndex = Number(event.target.value);
        state.adHoc = null;
        state.selected = null;
        render();
      }});
      state.doc.flows.forEach((flow, index) => select.append(el("option", {value: index, selected: !state.adHoc && index === state.flowIndex,
        text: `${flow.name}: ${flow.from || ""} → ${flow.to || ""}`})));
      if (state.adHoc) select.append(el("option", {value: -1, selected: true, text: `typed: ${state.adHoc.from} → ${state.adHoc.to}`}));
      box.append(el("label", {text: "a flow of the file"}), select);
    } else {
      box.append(el("p", {"class": "hint", text: "The file names no flows; type one below."}));
    }
    if (!embedded) {
      const form = el("form", {id: "adhoc", onsubmit: async event => {
        event.preventDefault();
        const data = new FormData(form);
        const error = form.querySelector(".form-error");
        error.textContent = "";
        try {
          const answer = await api("api/trace", {from: data.get("from"), to: data.get("to"), protocol: data.get("protocol")});
          state.adHoc = answer.flows[0];
          state.selected = null;
          render();
        } catch (e) {
          error.textContent = e.message;
        }
      }});
      form.append(el("label", {text: "or type one: from (cluster/namespace/pod or cluster/node)"}),
        el("input", {name: "from", id: "adhoc-from", placeholder: "cluster1/default/client", value: state.adHoc ? state.adHoc.from : ""}),
        el("label", {id: "adhoc-to-forms", text: "to: service.namespace.svc.clusterset.local:port (an exported service), "
          + "cluster.service.namespace.svc.clusterset.local:port (one cluster's export), "
          + "pod.cluster.service.namespace.svc.clusterset.local:port (a pod of an exported headless service), "
          + "cluster/namespace/pod:port or ip:port"}),
        el("input", {name: "to", id: "adhoc-to", placeholder: "nginx.default.svc.clusterset.local:80", value: state.adHoc ? state.adHoc.to : ""}),
        el("label", {text: "protocol"}),
        el("select", {name: "protocol"}, ["tcp", "udp", "icmp"].map(p => el("option", {value: p, text: p}))),
        el("button", {"class": "action", type: "submit", id: "adhoc-trace", text: "Trace"}),
        el("div", {"class": "form-error"}));
      box.append(form);
    }
    return box;
  }

  function legend() {
    return el("div", {"class": "legend"},
      el("span", {}, el("span", {"class": "swatch", style: "background:var(--active)"}), "active gateway"),
      el("span", {}, el("span", {"class": "swatch", style: "background:var(--standby)"}), "standby"),
      el("span", {}, el("span", {"class": "swatch", style: "background:var(--failed)"}), "failed"),
      el("span", {}, el("span", {"class": "swatch", style: "background:#0969da"}), "vxlan"),
      el("span", {}, el("span", {"class": "swatch", style: "background:#8250df"}), "wireguard"),
      el("span", {}, el("span", {"class": "swatch", style: "background:#bc4c00"}), "libreswan"));
  }

  // What the flow view's marks mean; the cable colours are the topology's, the path colours never one of them.
  function flowLegend() {
    const mark = (content, text) => el("span", {}, content, text);
    return el("div", {"class": "legend", id: "flow-legend"},
      mark(el("span", {"class": "swatch", style: `background:${pathColour(0)}`}), "path (its own colour)"),
      mark(el("span", {"class": "legend-mark", text: "—▸"}), "forward, solid"),
      mark(el("span", {"class": "legend-mark", text: "- -▸"}), "reply, dashed"),
      mark(el("span", {"class": "legend-mark", text: "3"}), "hop number"),
      mark(el("span", {"class": "legend-mark drop", text: "✕"}), "dropped, with why"),
      mark(el("span", {"class": "legend-mark nat", text: "SNAT"}), "address rewritten here (hover: before → after)"),
      mark(el("span", {"class": "swatch", style: "background:#0969da"}), "vxlan cable"),
      mark(el("span", {"class": "swatch", style: "background:#8250df"}), "wireguard cable"),
      mark(el("span", {"class": "swatch", style: "background:#bc4c00"}), "libreswan cable"));
  }

  function renderTopology(sidebar, canvas) {
    const t = state.doc.topology;
    const gateways = t.clusters.flatMap(c => c.hosts.filter(h => h.kind === "gateway"));
    sidebar.append(el("h2", {text: t.name}),
      el("div", {"class": "kv"}, `${t.clusters.length} clusters, ${gateways.length} gateways, ${t.cables.length} cables`
        + (t.unconnected.length ? `, ${t.unconnected.length} pairs unconnected by policy` : "")),
      el("div", {"class": "kv"}, t.globalnet ? "Globalnet on" : "Globalnet off"),
      legend());
    if (t.unconnected.length) {
      const shown = state.showUnconnected === null ? t.unconnected.length <= 30 : state.showUnconnected;
      sidebar.append(el("label", {"class": "gateway-toggle"}, el("input", {type: "checkbox", checked: shown,
        onchange: e => { state.showUnconnected = e.target.checked; render(); }}), "show unconnected pairs"));
    }
    const list = el("ul", {});
    for (const cluster of t.clusters) {
      list.append(el("li", {}, el("b", {text: cluster.name}), ` ${cluster.cni}; gateways `,
        cluster.hosts.filter(h => h.kind === "gateway").map(h => `${h.name} (${h.state})`).join(", ") || "none"));
    }
    sidebar.append(list);
    const opened = frameCluster(t);
    canvas.append(pane(null, markCluster(scene(t, {paneKey: "main"}), opened)));
  }

  function renderFlow(sidebar, canvas) {
    sidebar.append(flowChooser());
    const flow = currentFlow();
    if (flow) {
      sidebar.append(el("h3", {text: `${flow.paths.length} path${flow.paths.length === 1 ? "" : "s"}`
        + (flow.resolved ? ` to ${flow.resolved}` : "")}), pathList(flow));
      sidebar.append(flowLegend());
    }
    const picture = scene(state.doc.topology, {flow, paneKey: "main", focus: true});
    const hidden = Number(picture.dataset.hiddenClusters || 0);
    if (picture.dataset.focus === "side-by-side" || state.everyCluster) {
      sidebar.append(el("p", {"class": "hint", id: "focus-note", text: picture.dataset.focus === "side-by-side"
        ? `The ${picture.querySelectorAll(".cluster").length} clusters this flow crosses, side by side to fit`
          + (hidden ? `; ${hidden} others left out.` : ".")
        : "Every cluster in place; the ones this flow does not cross dimmed."}),
        el("label", {"class": "gateway-toggle"}, el("input", {type: "checkbox", id: "every-cluster", checked: state.everyCluster,
          onchange: e => { state.everyCluster = e.target.checked; render(); }}), "every cluster in place"));
    }
    canvas.append(pane(null, picture));
  }

  // ---------------------------------------------------------------- the flow table

  // Every path of every flow, one row each: what became of it, the gateways it crossed, the addresses
  // rewritten on the way and why it was dropped. Built from the document alone, like its exports, so
  // trace --html's serverless page has it too.
  const TRANSLATIONS = {snat: "SNAT", dnat: "DNAT", unsnat: "un-SNAT", undnat: "un-DNAT"};
  const TABLE_COLUMNS = ["flow", "path", "from", "to", "disposition", "gateways", "nat", "reason"];

  function endpoint(packet, end) {
    const port = end === "src" ? packet.sport : packet.dport;
    return packet[end] + (port !== undefined ? `:${port}` : "");
  }

  // Each translation a path's packets met, forward then reply, as {at, direction, kind, field, before, after}:
  // the end it rewrote (src or dst, with its port) before and after. The steps after an encapsulation
  // handle the outer packet, so the packet compared with is the last one of the same connection.
  function translations(path) {
    const found = [];
    for (const direction of ["forward", "reply"]) {
      if (!path[direction]) continue;
      for (const hop of path[direction].hops) {
        let before = hop.arrive;
        for (const step of hop.steps) {
          if (TRANSLATIONS[step.kind] && sameConnection(before, step.packet)) {
            for (const end of ["src", "dst"]) {
              const from = endpoint(before, end), to = endpoint(step.packet, end);
              if (from !== to) found.push({at: hop.node, direction, kind: TRANSLATIONS[step.kind], field: end, before: from, after: to});
            }
          }
          if (step.kind !== "encap") before = step.packet;
        }
      }
    }
    return found;
  }

  function translationText(t) {
    return `${t.kind} ${t.field} ${t.before} → ${t.after} at ${t.at}` + (t.direction === "reply" ? " (reply)" : "");
  }

  function tableRows(flows) {
    const rows = [];
    flows.forEach((flow, flowIndex) => {
      const base = {flow: flow.name, flowIndex, from: flow.from || "", to: flow.resolved || flow.to || ""};
      if (flow.error || !flow.paths.length) {
        rows.push({...base, path: 0, paths: 0, disposition: "error", gateways: [], nat: [], reason: flow.error || "no path"});
        return;
      }
      flow.paths.forEach((path, index) => rows.push({...base, path: index + 1, paths: flow.paths.length,
        disposition: path.disposition, gateways: path.gateways || [], nat: translations(path), reason: path.reason || "",
        cables: window.PeriscopeOverview.cablesCrossed(path)}));
    });
    return rows;
  }

  function rowShown(row) {
    const show = state.tableShow;
    if (show === "delivered" && row.disposition !== "delivered") return false;
    if (show === "not-delivered" && row.disposition === "delivered") return false;
    if (show && show !== "delivered" && show !== "not-delivered" && row.disposition !== show) return false;
    const query = state.tableQuery.trim().toLowerCase();
    if (!query) return true;
    const text = [row.flow, row.from, row.to, row.disposition, row.gateways.join(" "), row.nat.map(translationText).join(" "), row.reason]
      .join(" ").toLowerCase();
    return query.split(/\s+/).every(word => cableWord(word) ? (row.cables || []).includes(cableWord(word)) : text.includes(word));
  }

  // The overview's cable links search for cable:LEFT~RIGHT, the paths crossing that cable, matched whole
  // (a substring would take cable:c1~c2 for cable:c1~c20), in either order.
  function cableWord(word) {
    const match = /^cable:([^~]+)~(.+)$/.exec(word);
    return match ? window.PeriscopeOverview.pairKey(match[1], match[2]) : null;
  }

  function csvField(value) {
    const text = String(value);
    return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
  }

  function tableCsv(rows) {
    const lines = [TABLE_COLUMNS.join(",")];
    for (const row of rows) {
      lines.push([row.flow, row.path ? `${row.path}/${row.paths}` : "", row.from, row.to, row.disposition, row.gateways.join(" "),
        row.nat.map(translationText).join("; "), row.reason].map(csvField).join(","));
    }
    return lines.join("\r\n") + "\r\n";
  }

  function tableJson(rows) {
    return JSON.stringify({format: "periscope-flow-table", version: 1, name: state.doc.name || "",
      rows: rows.map(({flowIndex, cables, ...row}) => row)}, null, 2);
  }

  // A data: address rather than a blob: one, so the link needs no cleanup and works from a file.
  function download(id, text, type, name) {
    return el("a", {"class": "action download", id, download: name, href: `data:${type};charset=utf-8,${encodeURIComponent(text)}`,
      text: `Export ${name.split(".").pop().toUpperCase()}`});
  }

  function openRow(row) {
    state.flowIndex = row.flowIndex;
    state.adHoc = null;
    state.selected = null;
    state.view = "flow";
    render();
    const flow = currentFlow();
    if (row.path) select(flow, {path: row.path - 1, direction: "forward", hop: 0, pane: "main"});
  }

  function renderTable(sidebar, canvas) {
    const rows = tableRows(state.doc.flows);
    const dispositions = [...new Set(rows.map(r => r.disposition))].filter(d => d !== "delivered").sort();
    const show = el("select", {id: "table-show", onchange: e => { state.tableShow = e.target.value; fill(); }},
      [["", "every path"], ["delivered", "delivered"], ["not-delivered", "not delivered"], ...dispositions.map(d => [d, d])]
        .map(([value, text]) => el("option", {value, selected: value === state.tableShow, text})));
    const search = el("input", {id: "table-search", type: "search", placeholder: "flow, pod, gateway, address, reason…", value: state.tableQuery,
      oninput: e => { state.tableQuery = e.target.value; fill(); }});
    const count = el("div", {"class": "kv", id: "table-count"});
    const exports = el("div", {"class": "exports"});
    sidebar.append(el("h2", {text: "Flow table"}),
      el("p", {"class": "hint", text: "Every path of every flow of the file. Click a row to open it in the flow view."}),
      el("label", {text: "show"}), show, el("label", {text: "search (every word)"}), search, count, exports);
    const body = el("tbody", {});
    const wrap = el("div", {id: "table-wrap"}, el("table", {"class": "flows", id: "flow-table"},
      el("thead", {}, el("tr", {}, ["flow", "path", "from → to", "disposition", "gateways crossed", "NAT", "drop reason"].map(h => el("th", {text: h})))),
      body));
    canvas.append(wrap);

    // The filters redraw the rows and the exports only: redrawing the view would take the search box's focus.
    function fill() {
      const shown = rows.filter(rowShown);
      body.replaceChildren(...shown.map(row => el("tr", {"class": `flow-row ${row.disposition}`, "data-flow": row.flow, "data-path": row.path,
          "data-disposition": row.disposition, onclick: () => openRow(row), title: "open in the flow view"},
        el("td", {text: row.flow}),
        el("td", {text: row.path ? `${row.path}/${row.paths}` : ""}),
        el("td", {"class": "ends"}, el("div", {text: row.from}), el("div", {text: "→ " + row.to})),
        el("td", {}, el("span", {"class": `disposition ${row.disposition}`, text: row.disposition})),
        el("td", {"class": "gateways"}, gatewayLines(row.gateways)),
        el("td", {"class": "nat"}, row.nat.map(t => el("div", {"class": "translation", "data-kind": t.kind, title: `at ${t.at}, ${t.direction}`},
          el("b", {text: t.kind + " "}), `${t.field} ${t.before} → ${t.after}`))),
        el("td", {"class": "reason", text: row.reason}))));
      if (!shown.length) body.append(el("tr", {}, el("td", {colspan: 7, "class": "hint", text: "no path matches"})));
      count.textContent = `${shown.length} of ${rows.length} paths, ${new Set(rows.map(r => r.flow)).size} flows`;
      const name = (state.doc.name || "periscope") + "-flows";
      exports.replaceChildren(download("table-csv", tableCsv(shown), "text/csv", name + ".csv"),
        download("table-json", tableJson(shown), "application/json", name + ".json"));
      updateAddress();
    }
    fill();
  }

  function pane(title, content) {
    return el("div", {"class": "pane"}, title ? el("h3", {}, title) : null, content, content.zoomControls || null);
  }

  async function toggleGateway(host) {
    if (host.kind !== "gateway" && !state.failed.includes(host.id)) return;
    state.failed = state.failed.includes(host.id) ? state.failed.filter(f => f !== host.id) : [...state.failed, host.id].sort();
    await refreshWhatIf();
  }

  async function refreshWhatIf() {
    try {
      state.whatIf = await api("api/whatif", {fail: state.failed});
    } catch (e) {
      state.whatIf = {error: e.message};
    }
    state.selected = null;
    render();
  }

  // One gateway a line, free to break after its cluster's slash: cluster/node names are long for a sidebar column.
  function gatewayLines(gateways) {
    if (!gateways.length) return [el("div", {text: "none"})];
    return gateways.map(id => {
      const slash = id.indexOf("/");
      return el("div", {"class": "gateway"}, id.slice(0, slash + 1), el("wbr"), id.slice(slash + 1));
    });
  }

  function renderWhatIf(sidebar, canvas) {
    sidebar.append(el("h2", {text: "What if"}),
      el("p", {"class": "hint", text: "Click a gateway (or tick it here) to fail it, as trace --fail does: it and its pods are gone and the other gateways take over."}));
    sidebar.append(gatewayPicker(state.doc.topology));
    if (!state.whatIf) {
      refreshWhatIf();
      return;
    }
    if (state.whatIf.error) {
      sidebar.append(el("div", {"class": "form-error", text: state.whatIf.error}));
      return;
    }
    const answer = state.whatIf;
    if (answer.flows.length) {
      const chooser = el("select", {id: "whatif-flow", onchange: e => { state.whatIfFlow = Number(e.target.value); state.selected = null; render(); }});
      answer.flows.forEach((f, i) => chooser.append(el("option", {value: i, selected: i === state.whatIfFlow, text: f.name})));
      sidebar.append(el("label", {text: "flow drawn"}), chooser);
    }
    const table = el("table", {"class": "report", id: "whatif-report"},
      el("tr", {}, el("th", {text: "flow"}), el("th", {text: "change"}), el("th", {text: "gateways before"}), el("th", {text: "after"})));
    for (const line of answer.report) {
      table.append(el("tr", {"data-flow": line.flow},
        el("td", {text: line.flow}),
        el("td", {"class": `change ${line.change}`, text: CHANGES[line.change] || line.change, title: line.verdict + (line.why ? `: ${line.why}` : "")}),
        el("td", {"class": "gateways before"}, gatewayLines(line.before)),
        el("td", {"class": "gateways after"}, gatewayLines(line.after),
          el("div", {"class": "delivered-count", text: `${line.deliveredAfter}/${line.pathsAfter} delivered`}))));
    }
    sidebar.append(el("h3", {text: state.failed.length ? `With ${state.failed.join(", ")} failed` : "Nothing failed yet"}), table);
    const index = Math.min(state.whatIfFlow, answer.flows.length - 1);
    const healthyFlow = answer.healthy[index], failedFlow = answer.flows[index];
    const selectable = host => host.kind === "gateway" || host.state === "failed";
    canvas.append(state.whatIfShows === "before"
      ? pane(beforeAfterToggle("Healthy"), scene(state.doc.topology, {flow: healthyFlow, paneKey: "healthy"}))
      : pane(beforeAfterToggle(state.failed.length ? `With ${state.failed.join(", ")} failed` : "Click a gateway to fail it"),
        scene(answer.topology, {flow: failedFlow, paneKey: "failed", onHost: toggleGateway, selectable})));
  }

  // What-if draws one picture, after the failure or before it, switched here: the
  // same place on the page, so what moved shows as a change rather than a comparison of two small panes.
  state.whatIfShows = "after";

  function beforeAfterToggle(title) {
    const choice = (value, text) => el("button", {"class": "before-after" + (state.whatIfShows === value ? " selected" : ""),
      "data-shows": value, onclick: () => { state.whatIfShows = value; state.selected = null; render(); }, text});
    return el("span", {"class": "before-after-bar", id: "before-after"}, choice("before", "before"), choice("after", "after"), " ", title);
  }

  // The gateways to fail: a search box filtering the list (every word, against cluster/node), the failed
  // ones as chips above it that a click brings back. Ticking a gateway fails it, as clicking it in the
  // picture does. The list stays in the page as the search narrows it, so the box keeps its focus.
  state.gatewaySearch = "";

  function gatewayPicker(topology) {
    const gateways = topology.clusters.flatMap(c => c.hosts.filter(h => h.kind === "gateway"));
    const chips = el("div", {"class": "chips", id: "failed-chips"}, state.failed.map(id => el("button", {"class": "chip", "data-id": id,
      title: "bring it back", onclick: () => toggleGateway({id, kind: "gateway"}), text: `${id} ✕`})));
    const list = el("div", {"class": "gateway-list", id: "gateway-list"});
    const count = el("div", {"class": "kv", id: "gateway-count"});
    const search = el("input", {id: "gateway-search", type: "search", placeholder: "cluster or gateway…", value: state.gatewaySearch,
      oninput: e => { state.gatewaySearch = e.target.value; filter(); }});
    function filter() {
      const words = state.gatewaySearch.trim().toLowerCase().split(/\s+/).filter(Boolean);
      const shown = gateways.filter(h => words.every(w => h.id.toLowerCase().includes(w)));
      list.replaceChildren(...shown.map(host => el("label", {"class": "gateway-toggle", "data-id": host.id}, el("input", {type: "checkbox", "data-id": host.id,
        checked: state.failed.includes(host.id), onchange: () => toggleGateway(host)}), host.id + (host.state === "active" ? "" : ` (${host.state})`))));
      count.textContent = `${shown.length} of ${gateways.length} gateways`;
    }
    filter();
    return el("div", {"class": "gateway-picker"}, state.failed.length ? el("label", {text: "failed"}) : null, chips,
      el("label", {text: "gateways"}), search, count, list);
  }

  async function renderReachability(sidebar, canvas) {
    sidebar.append(el("h2", {text: "Reachability"}),
      el("p", {"class": "hint", text: "Every source pod against every exported service, as check computes it. A cell opens its flow."}),
      el("div", {"class": "legend"},
        el("span", {}, el("span", {"class": "swatch", style: "background:#aceebb;height:10px"}), "yes: every path delivered"),
        el("span", {}, el("span", {"class": "swatch", style: "background:#fff1b8;height:10px"}), "part"),
        el("span", {}, el("span", {"class": "swatch", style: "background:#ffcecb;height:10px"}), "no"),
        el("span", {}, el("span", {"class": "swatch", style: "background:#d0d7de;height:10px"}), "err: not resolvable")));
    const wrap = el("div", {id: "matrix-wrap"});
    canvas.append(wrap);
    if (!state.matrix || state.matrix.revision !== state.doc.revision) {
      wrap.append(el("p", {"class": "hint", text: "tracing every pod to every exported service…"}));
      try {
        state.matrix = await api("api/reachability");
      } catch (e) {
        wrap.replaceChildren(el("div", {"class": "form-error", text: e.message}));
        return;
      }
      if (state.view === "reachability") render();
      return;
    }
    const m = state.matrix;
    const clusters = [...new Set(m.sources.map(s => s.split("/")[0]))];
    const namespaces = [...new Set(m.sources.map(s => s.split("/")[1]))].sort();
    const clusterFilter = el("select", {id: "matrix-cluster", onchange: e => { state.matrixCluster = e.target.value; state.matrixPage = 0; render(); }},
      el("option", {value: "", text: "all clusters"}), clusters.map(c => el("option", {value: c, selected: c === state.matrixCluster, text: c})));
    const namespaceFilter = el("select", {id: "matrix-namespace", onchange: e => { state.matrixNamespace = e.target.value; state.matrixPage = 0; render(); }},
      el("option", {value: "", text: "all namespaces"}), namespaces.map(n => el("option", {value: n, selected: n === state.matrixNamespace, text: n})));
    sidebar.append(el("label", {text: "source cluster"}), clusterFilter, el("label", {text: "source namespace"}), namespaceFilter,
      el("div", {"class": "kv"}, `${m.sources.length} source pods × ${m.columns.length} services, ${m.traced} flows traced`));
    const rows = m.sources.map((s, i) => i).filter(i => {
      const [cluster, namespace] = m.sources[i].split("/");
      return (!state.matrixCluster || cluster === state.matrixCluster) && (!state.matrixNamespace || namespace === state.matrixNamespace);
    });
    const pages = Math.max(1, Math.ceil(rows.length / PAGE_ROWS));
    state.matrixPage = Math.min(state.matrixPage, pages - 1);
    const shown = rows.slice(state.matrixPage * PAGE_ROWS, (state.matrixPage + 1) * PAGE_ROWS);
    const table = el("table", {"class": "matrix", id: "matrix"});
    table.append(el("thead", {}, el("tr", {}, el("th", {text: "source \\ service"}),
      m.columns.map(c => el("th", {title: `${c.dnsName} ${c.port}`, text: `${c.service} ${c.port}`})))));
    const body = el("tbody", {});
    let group = null;
    for (const i of shown) {
      const cluster = m.sources[i].split("/")[0];
      if (cluster !== group) {
        group = cluster;
        body.append(el("tr", {"class": "group"}, el("th", {colspan: m.columns.length + 1, text: cluster})));
      }
      const tr = el("tr", {}, el("th", {text: m.sources[i]}));
      m.cells[i].forEach((cell, c) => {
        tr.append(el("td", {"class": `reach reach-${cell.reach}`, "data-source": m.sources[i], "data-service": m.columns[c].service,
          title: cell.error || `${cell.delivered} of ${cell.paths} paths delivered`, text: cell.reach,
          onclick: () => openCell(m.sources[i], m.columns[c])}));
      });
      body.append(tr);
    }
    table.append(body);
    const pager = el("div", {"class": "pager"},
      el("button", {"class": "action", disabled: state.matrixPage === 0, onclick: () => { state.matrixPage--; render(); }, text: "‹ previous"}),
      el("span", {text: `page ${state.matrixPage + 1} of ${pages} (${rows.length} rows)`}),
      el("button", {"class": "action", disabled: state.matrixPage >= pages - 1, onclick: () => { state.matrixPage++; render(); }, text: "next ›"}));
    wrap.replaceChildren(pager, table);
  }

  async function openCell(source, column) {
    const [protocol, port] = column.port.split("/");
    try {
      const answer = await api("api/trace", {from: source, to: `${column.dnsName}:${port}`, protocol});
      state.adHoc = answer.flows[0];
    } catch (e) {
      state.adHoc = {name: "ad-hoc", from: source, to: column.dnsName, error: e.message, paths: []};
    }
    state.selected = null;
    state.view = "flow";
    render();
  }

  // ---------------------------------------------------------------- the overview

  // overview.js sums the document up per cluster and per cable and draws it; here it gets the page's
  // helpers and where its clicks lead: a cluster to the detailed topology framed on it, a cable to
  // the flow table filtered to the flows that cross it (the search word cable:LEFT~RIGHT).
  function renderOverview(sidebar, canvas) {
    const overview = window.PeriscopeOverview;
    const page = {el, svg, panZoom, openCluster, openCable: edge => openTable(`cable:${edge.key}`)};
    const drawn = overview.draw(state.doc, canvasSize(), page);
    sidebar.append(el("h2", {text: "Overview"}), overview.sidebar(drawn.summary, page));
    canvas.append(pane(null, drawn.root));
  }

  function openCluster(name) {
    state.view = "topology";
    state.cluster = name;
    state.frameCluster = true;
    state.selected = null;
    render();
  }

  function openTable(query) {
    state.view = "table";
    state.tableShow = "";
    state.tableQuery = query;
    state.selected = null;
    render();
  }

  // The detailed topology framed on the cluster the overview (or the address) opened, once: after
  // that the user's own zoom and pan are kept, and "fit" shows the whole set. The cluster stays marked.
  function frameCluster(topology) {
    const cluster = topology.clusters.find(c => c.name === state.cluster);
    if (!cluster) return null;
    if (state.frameCluster) {
      state.frameCluster = false;
      const size = canvasSize();
      const margin = 40;
      // Not closer than twice full size: a small cluster keeps its neighbours in sight.
      const w = Math.max(cluster.w + 2 * margin, size.w / 2), h = Math.max(cluster.h + 2 * margin, size.h / 2);
      zooms.set("topology|main||", {x: cluster.x + cluster.w / 2 - w / 2, y: cluster.y + cluster.h / 2 - h / 2, w, h});
    }
    return cluster.name;
  }

  function markCluster(picture, name) {
    if (name) picture.querySelectorAll(".cluster").forEach(g => g.classList.toggle("opened", g.dataset.name === name));
    return picture;
  }

  // Without a view in the address, a large set opens on the overview rather than 600 unreadable hosts.
  function chooseFirstView(doc) {
    if (state.viewChosen || !doc.topology) return;
    state.viewChosen = true;
    if (doc.topology.clusters.length > window.PeriscopeOverview.DEFAULT_ABOVE) state.view = "overview";
  }

  // ---------------------------------------------------------------- lab

  // The lab view: whether the served file's lab is up (api/lab), a probe of the chosen flow with real
  // packets (api/lab/probe, the trace document version 3), and what the packets did drawn over the
  // simulated paths: a dotted line along the upper edge of each host per distinct route the captures
  // show, a square per captured hop, and on the hop where a route first differs from the simulation
  // a red square labelled with the field that differs.

  const LAB_HEADLINES = {up: "lab up", down: "lab down", building: "lab still building", "other-file": "lab of another file",
    changed: "lab older than the file", "not-root": "not root", "invalid-file": "file has errors", unavailable: "no lab here"};

  async function refreshLabStatus() {
    if (state.labStatusLoading) return;
    state.labStatusLoading = true;
    const revision = state.doc.revision;
    try {
      state.labStatus = {...await api("api/lab"), revision};
    } catch (e) {
      state.labStatus = {condition: "unavailable", up: false, message: e.message, revision};
    }
    state.labStatusLoading = false;
    if (state.view === "lab") render();
  }

  async function runProbe(flowName) {
    state.labBusy = true;
    state.labError = null;
    render();
    try {
      state.labAnswer = await api("api/lab/probe", {flow: flowName});
    } catch (e) {
      state.labAnswer = null;
      state.labError = e.message;
      state.labStatus = null; // the refusal may mean the lab went away: ask again
    }
    state.labBusy = false;
    state.selected = null;
    if (state.view === "lab") render();
  }

  // The observed paths of a flow, one entry per distinct route (many probes take the same one).
  function capturedRoutes(observed) {
    const routes = new Map();
    for (const path of observed.paths || []) {
      const nodes = ["forward", "reply"].map(d => path[d] ? path[d].hops.map(h => h.node).join(">") : "").join("|");
      const difference = path.firstDifference ? JSON.stringify(path.firstDifference) : "";
      const key = `${nodes} ${path.disposition} ${path.matchesSimulation} ${difference}`;
      if (!routes.has(key)) routes.set(key, {path, probes: 0, ports: []});
      const route = routes.get(key);
      route.probes++;
      if (path.sourcePort !== undefined) route.ports.push(path.sourcePort);
    }
    // In the order of the simulated paths they match, so the list and the colours read like the flow view's.
    return [...routes.values()].sort((a, b) => (a.path.simulatedPath || 1e9) - (b.path.simulatedPath || 1e9));
  }

  // The hop (of `direction`, 0-based) that a first difference points at, or -1 for none.
  function mismatchHop(path, direction) {
    const d = path.firstDifference;
    if (!d || path.matchesSimulation) return -1;
    const hops = path[direction] ? path[direction].hops : [];
    if (!hops.length) return -1;
    if (d.direction === "path") return direction === "forward" ? hops.length - 1 : -1; // the disposition: where the packet ended
    if (d.direction !== direction) return -1;
    return Math.min(Math.max(d.hop - 1, 0), hops.length - 1);
  }

  function differenceText(d) {
    const where = d.hop === 0 ? d.direction : `${d.direction} hop ${d.hop}` + (d.node ? ` (${d.node})` : "");
    return `${where}: ${d.field} simulated ${d.simulated}, observed ${d.observed}`;
  }

  function drawCaptured(root, topology, flow) {
    const hosts = hostIndex(topology);
    const layer = svg("g", {"class": "captured", "data-flow": flow.name});
    const routes = capturedRoutes(flow.observed);
    const slots = Math.max(1, routes.length * 2);
    const slot = (host, index, direction) => {
      const spacing = Math.min(10, (host.w - 16) / slots);
      const k = index * 2 + (direction === "reply" ? 1 : 0);
      return {x: host.x + host.w / 2 + (k - (slots - 1) / 2) * spacing, y: host.y - 5}; // just above the box, clear of its label
    };
    const marks = svg("g", {"class": "captured-hops"});
    routes.forEach((route, index) => {
      const path = route.path;
      const colour = path.simulatedPath > 0 ? pathColour(path.simulatedPath - 1) : "#57606a";
      for (const direction of ["forward", "reply"]) {
        const hops = path[direction] ? path[direction].hops : null;
        if (!hops || !hops.length) continue;
        const wrong = mismatchHop(path, direction);
        const points = [];
        hops.forEach((hop, hopIndex) => {
          const host = hosts.get(hop.node);
          if (!host || host.x === undefined) return;
          points.push({...slot(host, index, direction), hop, hopIndex});
        });
        if (!points.length) continue;
        // Between clusters the captured routes bow above the boxes, apart from the simulated ones below.
        let d = `M${points[0].x},${points[0].y}`;
        for (let i = 1; i < points.length; i++) {
          const a = points[i - 1], b = points[i];
          if (a.hop.node.split("/")[0] !== b.hop.node.split("/")[0]) {
            d += ` Q${(a.x + b.x) / 2},${Math.min(a.y, b.y) - 30 - index * 12 - (direction === "reply" ? 6 : 0)} ${b.x},${b.y}`;
          } else {
            d += ` L${b.x},${b.y}`;
          }
        }
        layer.append(svg("path", {"class": `captured-path ${direction}` + (path.matchesSimulation ? " matches" : " differs"),
          "data-route": index, "data-direction": direction, d}));
        for (const p of points) {
          const isWrong = p.hopIndex === wrong;
          const isSelected = state.selected && state.selected.pane === "captured" && state.selected.route === index
            && state.selected.direction === direction && state.selected.hop === p.hopIndex;
          const marker = svg("rect", {"class": "captured-hop" + (isWrong ? " mismatch" : "") + (isSelected ? " selected" : ""),
            x: p.x - 4, y: p.y - 4, width: 8, height: 8, fill: isWrong ? "var(--failed)" : colour,
            "data-route": index, "data-direction": direction, "data-hop": p.hopIndex, "data-node": p.hop.node});
          marker.append(svg("title", {}, `captured ${direction}, hop ${p.hopIndex + 1}: ${p.hop.node}\n${packetText(p.hop.arrive)}`
            + (p.hop.depart ? `\n→ ${packetText(p.hop.depart)}` : "") + (isWrong ? `\n${differenceText(path.firstDifference)}` : "")));
          marker.addEventListener("click", event => {
            event.stopPropagation();
            selectCaptured(flow, route, {route: index, direction, hop: p.hopIndex});
          });
          marks.append(marker);
          if (isWrong) {
            marks.append(svg("text", {"class": "mismatch-label", x: p.x + 7, y: p.y - 6, "data-field": path.firstDifference.field},
              `≠ ${path.firstDifference.field}`));
          }
        }
      }
    });
    root.querySelector(".world").append(layer, marks);
  }

  function selectCaptured(flow, route, selection) {
    // The simulated path it was compared with stays bright; the others dim, as in the flow view.
    state.selected = {...selection, path: route.path.simulatedPath - 1, pane: "captured"};
    renderCanvasOnly();
    showCapturedHop(flow, route, selection);
  }

  function showCapturedHop(flow, route, selection) {
    const details = document.getElementById("details");
    const path = route.path;
    const hops = path[selection.direction].hops;
    const hop = hops[selection.hop];
    const section = el("div", {id: "captured-details"});
    details.replaceChildren(el("h2", {id: "hop-title", text: hop.node}),
      kv("captured", `${selection.direction}, hop ${selection.hop + 1} of ${hops.length}, by ${route.probes} probe${route.probes === 1 ? "" : "s"}`
        + (route.ports.length ? ` (source ports ${route.ports.slice(0, 6).join(", ")}${route.ports.length > 6 ? ", …" : ""})` : "")),
      kv("compared with", path.simulatedPath > 0 ? `simulated path ${path.simulatedPath}` : "no simulated path"),
      kv("interfaces", `${hop.in || "(generated here)"} → ${hop.out || "(ends here)"}`), section);
    // The simulated hop at the same place, when the simulated path has one there.
    const simulatedPath = flow.paths[path.simulatedPath - 1];
    const simulatedHop = simulatedPath && simulatedPath[selection.direction] ? simulatedPath[selection.direction].hops[selection.hop] : null;
    const rows = [{label: "arrive", packet: hop.arrive}, {label: "depart", packet: hop.depart, before: hop.arrive}];
    if (simulatedHop && simulatedHop.node === hop.node) {
      // Each probe leaves from a source port of its own and is compared with the simulation at that port; the
      // simulated packets shown are the file's flow's, so the client's port is not marked as a difference.
      const clientPort = selection.direction === "forward" ? "sport" : "dport";
      const asSimulated = (captured, simulatedPacket) => captured && simulatedPacket ? {...captured, [clientPort]: simulatedPacket[clientPort]} : captured;
      rows.push({label: "simulated arrive", packet: simulatedHop.arrive, before: asSimulated(hop.arrive, simulatedHop.arrive)},
        {label: "simulated depart", packet: simulatedHop.depart, before: asSimulated(hop.depart, simulatedHop.depart)});
    }
    section.append(el("h3", {text: "Captured packet before and after"}), packetTable(rows));
    if (rows.length > 2) {
      section.append(el("p", {"class": "hint", text: "Simulated rows: the simulator's packets at the same hop, fields that differ from the capture marked "
        + "(the client's port aside: each probe uses its own)."}));
    }
    for (const step of hop.steps || []) {
      if (step.kind === "encap") {
        section.append(el("div", {"class": "step", "data-kind": "encap"}, el("span", {"class": "kind encap", text: "encap"}),
          kv("encapsulation", `${step.encapsulation} on ${step.device}` + (step.vni !== undefined ? `, VNI ${step.vni}` : "") + outerPort(step)
            + (step.encrypted ? ", encrypted" : "")),
          kv("outer", `${step.outerSrc} → ${step.outerDst} via ${step.underlay}`)));
      }
    }
    if (mismatchHop(path, selection.direction) === selection.hop) {
      section.append(el("h3", {text: "Differs from the simulation"}),
        el("div", {"class": "verdict dropped", id: "mismatch", "data-field": path.firstDifference.field, text: differenceText(path.firstDifference)}));
    } else if (path.matchesSimulation) {
      section.append(el("div", {"class": "verdict delivered", text: "this route matches the simulation field by field"}));
    }
    if (selection.hop === hops.length - 1) {
      section.append(el("h3", {text: "Disposition"}), el("div", {"class": `verdict ${path.disposition}`, text: path.disposition}));
    }
  }

  function labSummary(flow) {
    const observed = flow.observed;
    const box = el("div", {id: "lab-summary", "data-matches": String(!!observed.matchesSimulation)});
    if (observed.problem) {
      box.append(el("div", {"class": "verdict dropped", text: `not probed: ${observed.problem}`}));
      return box;
    }
    if (observed.unanswered) {
      box.append(el("div", {"class": "verdict delivered", text: `unreachable, as simulated: ${observed.unanswered}; nothing was sent`}));
      return box;
    }
    const taken = observed.simulatedPathsTaken || [];
    box.append(el("div", {"class": "verdict " + (observed.matchesSimulation ? "delivered" : "dropped"),
      text: observed.matchesSimulation ? "matches the simulation" : "differs from the simulation"}),
      kv("probes", `${observed.paths.length}, taking ${taken.length} of ${observed.simulatedPaths} simulated paths`
        + (taken.length ? ` (${taken.join(", ")})` : "")));
    const list = el("ul", {"class": "path-list", id: "captured-routes"});
    capturedRoutes(observed).forEach((route, index) => {
      const path = route.path;
      const colour = path.simulatedPath > 0 ? pathColour(path.simulatedPath - 1) : "#57606a";
      list.append(el("li", {"class": "path-item captured-route", "data-route": index, "data-matches": String(path.matchesSimulation)},
        el("header", {onclick: () => selectCaptured(flow, route, {route: index, direction: "forward", hop: 0})},
          el("span", {"class": "swatch", style: `background:${colour}`}),
          el("span", {text: `×${route.probes} ` + (path.simulatedPath > 0 ? `as path ${path.simulatedPath}` : "no simulated path")}),
          el("span", {"class": `disposition ${path.matchesSimulation ? "delivered" : "dropped"}`, text: path.matchesSimulation ? "matches" : "differs"})),
        path.firstDifference && !path.matchesSimulation ? el("div", {"class": "choices mismatch-text", text: differenceText(path.firstDifference)}) : null));
    });
    box.append(list);
    return box;
  }

  function renderLab(sidebar, canvas) {
    sidebar.append(el("h2", {text: "Lab"}), el("p", {"class": "hint",
      text: "Real packets through the namespace lab that lab up built from this file, captured on every interface they cross "
        + "and drawn over the simulated paths: dotted lines and squares along the top of each host."}));
    const status = state.labStatus;
    if (!status || status.revision !== state.doc.revision) {
      sidebar.append(el("p", {"class": "hint", id: "lab-loading", text: "asking whether the lab is up…"}));
      canvas.append(pane(null, scene(state.doc.topology, {paneKey: "lab"})));
      refreshLabStatus();
      return;
    }
    const box = el("div", {id: "lab-status", "class": `lab-status ${status.up ? "up" : "not-up"}`, "data-condition": status.condition},
      el("b", {text: LAB_HEADLINES[status.condition] || status.condition}), el("div", {text: status.message}));
    if (status.command) {
      box.append(el("div", {"class": "kv", text: status.up ? "" : "to probe from here, run:"}), el("div", {"class": "rule", id: "lab-command", text: status.command}));
    }
    sidebar.append(box);
    const flows = state.doc.flows;
    if (!flows.length) {
      sidebar.append(el("p", {"class": "hint", text: "The file names no flows: the lab probes the file's flows."}));
      canvas.append(pane(null, scene(state.doc.topology, {paneKey: "lab"})));
      return;
    }
    state.labFlow = Math.min(state.labFlow, flows.length - 1);
    const chooser = el("select", {id: "lab-flow", onchange: e => { state.labFlow = Number(e.target.value); state.selected = null; render(); }});
    flows.forEach((f, i) => chooser.append(el("option", {value: i, selected: i === state.labFlow, text: `${f.name}: ${f.from || ""} → ${f.to || ""}`})));
    const name = flows[state.labFlow].name;
    sidebar.append(el("label", {text: "flow"}), chooser,
      el("button", {"class": "action", id: "lab-probe", disabled: !status.up || state.labBusy, onclick: () => runProbe(name),
        text: state.labBusy ? "probing with real packets…" : "Probe this flow in the lab"}));
    if (state.labError) sidebar.append(el("div", {"class": "form-error", id: "lab-error", text: state.labError}));
    const answer = state.labAnswer && state.labAnswer.revision === state.doc.revision
      ? state.labAnswer.flows.find(f => f.name === name && f.observed) : null;
    const simulated = answer || flows[state.labFlow];
    if (answer) sidebar.append(labSummary(answer));
    sidebar.append(el("p", {"class": "hint", text: "Coloured lines below the hosts: the simulator's paths (solid forward, dashed reply). "
      + "Dotted lines above: the routes real packets took, each square a hop captured; a red square marks the first field that differs."}));
    const picture = scene(state.doc.topology, {flow: simulated, paneKey: "lab"});
    if (answer) drawCaptured(picture, state.doc.topology, answer);
    canvas.append(pane(null, picture));
  }

  // ---------------------------------------------------------------- deep links

  // The address says what is shown, ?view=flow&flow=NAME&path=2&direction=reply&hop=3 or
  // ?view=whatif&flow=NAME&fail=C/N&fail=C/N (path and hop counted from 1, as the details say them):
  // kept up to date as the user clicks and read once on load, so a link or a reload opens the same
  // picture. A name the document does not have is ignored.
  let requested = null;

  function readAddress() {
    const params = new URLSearchParams(location.search);
    const fromOne = key => {
      const n = Number(params.get(key));
      return params.has(key) && Number.isInteger(n) && n >= 1 ? n - 1 : null;
    };
    requested = {flow: params.get("flow"), path: fromOne("path"), hop: fromOne("hop"),
      direction: params.get("direction") === "reply" ? "reply" : "forward"};
    if (params.get("view")) state.view = params.get("view");
    state.viewChosen = params.has("view");
    state.cluster = params.get("cluster");
    state.frameCluster = !!state.cluster;
    state.tableShow = params.get("show") || "";
    state.tableQuery = params.get("q") || "";
    state.failed = [...new Set(params.getAll("fail"))].sort();
  }

  // The first document drawn gets the flow the address names; the hop is selected once it is drawn.
  function applyRequestedFlow(doc) {
    if (!requested || !requested.flow || !doc.flows) return;
    const index = doc.flows.findIndex(f => f.name === requested.flow);
    if (index >= 0) {
      state.flowIndex = index;
      state.whatIfFlow = index;
      state.labFlow = index;
    }
  }

  function applyRequestedHop() {
    const wanted = requested;
    requested = null;
    if (!wanted || state.view !== "flow" || wanted.path === null || wanted.hop === null) return;
    const flow = currentFlow();
    const path = flow && flow.paths ? flow.paths[wanted.path] : null;
    if (path && path[wanted.direction] && path[wanted.direction].hops[wanted.hop]) {
      select(flow, {path: wanted.path, direction: wanted.direction, hop: wanted.hop, pane: "main"});
    }
  }

  function flowNameShown() {
    const flows = state.doc.flows;
    if (!flows || !flows.length) return null;
    const at = index => flows[Math.min(index, flows.length - 1)].name;
    switch (state.view) {
      case "flow": return state.adHoc ? null : at(state.flowIndex);
      case "whatif": return at(state.whatIfFlow);
      case "lab": return at(state.labFlow);
      default: return null;
    }
  }

  function updateAddress() {
    const params = [["view", state.view]];
    const name = flowNameShown();
    if (name) params.push(["flow", name]);
    const selected = state.selected;
    if (state.view === "flow" && selected && selected.pane === "main") {
      params.push(["path", selected.path + 1], ["direction", selected.direction], ["hop", selected.hop + 1]);
    }
    if (state.view === "whatif") state.failed.forEach(f => params.push(["fail", f]));
    if (state.view === "topology" && state.cluster) params.push(["cluster", state.cluster]);
    if (state.view === "table") {
      if (state.tableShow) params.push(["show", state.tableShow]);
      if (state.tableQuery.trim()) params.push(["q", state.tableQuery.trim()]);
    }
    // Slashes stay readable: cluster/node needs no escaping in a query.
    const query = "?" + params.map(([k, v]) => `${k}=${encodeURIComponent(v).replace(/%2F/g, "/")}`).join("&");
    if (query === location.search) return;
    try {
      history.replaceState(history.state, "", query);
    } catch (e) {
      // A page opened from a file may not rewrite its own address: only the link is lost.
    }
  }

  // ---------------------------------------------------------------- keyboard

  // In the flow view the arrow keys walk the selected path's hops, forward then reply, as the hop list
  // orders them: right or down the next, left or up the previous; with nothing selected, right or down
  // starts at the first hop of the first path. Keys typed into a form are theirs.
  function stepThroughHops(event) {
    const forward = event.key === "ArrowRight" || event.key === "ArrowDown";
    const back = event.key === "ArrowLeft" || event.key === "ArrowUp";
    if ((!forward && !back) || event.altKey || event.ctrlKey || event.metaKey || !state.doc || state.view !== "flow") return;
    if (event.target instanceof Element && event.target.closest("input, select, textarea")) return;
    const flow = currentFlow();
    if (!flow || !flow.paths || !flow.paths.length) return;
    const selected = state.selected && state.selected.pane === "main" ? state.selected : null;
    const index = selected ? selected.path : 0;
    const path = flow.paths[index];
    const order = ["forward", "reply"].flatMap(direction => (path[direction] ? path[direction].hops : []).map((h, hop) => ({direction, hop})));
    if (!order.length) return;
    const at = selected ? order.findIndex(o => o.direction === selected.direction && o.hop === selected.hop) : -1;
    const next = at < 0 ? 0 : Math.max(0, Math.min(order.length - 1, at + (forward ? 1 : -1)));
    event.preventDefault();
    if (at === next) return;
    select(flow, {path: index, direction: order[next].direction, hop: order[next].hop, pane: "main"});
    const item = document.querySelector(`.hop-list li[data-path='${index}'][data-direction='${order[next].direction}'][data-hop='${order[next].hop}']`);
    if (item) item.scrollIntoView({block: "nearest"});
  }

  // ---------------------------------------------------------------- the page

  function renderCanvasOnly() {
    // Redrawing the whole view keeps the sidebar and canvas in step; the views are small.
    const details = document.getElementById("details").cloneNode(true);
    render();
    document.getElementById("details").replaceWith(details);
  }

  function render() {
    const doc = state.doc;
    const errors = document.getElementById("errors");
    const workbench = document.getElementById("workbench");
    document.getElementById("title").textContent = doc.name || "";
    if (doc.errors) {
      const list = document.getElementById("error-list");
      list.replaceChildren(...doc.errors.map(e => el("li", {"data-line": e.line, text: e.text})));
      errors.hidden = false;
      workbench.hidden = true;
      markRendered();
      return;
    }
    errors.hidden = true;
    workbench.hidden = false;
    document.querySelectorAll(".tab").forEach(tab => {
      tab.classList.toggle("selected", tab.dataset.view === state.view);
      tab.disabled = !!embedded && (tab.dataset.view === "whatif" || tab.dataset.view === "reachability" || tab.dataset.view === "lab");
      if (tab.disabled) tab.title = "needs periscope serve";
    });
    const sidebar = document.getElementById("sidebar");
    const canvas = document.getElementById("canvas");
    sidebar.replaceChildren();
    canvas.replaceChildren();
    // Nothing selected (a tab, flow or what-if change clears the selection): the previous hop's
    // details would describe a path no longer drawn. renderCanvasOnly keeps them while a hop is selected.
    if (!state.selected) clearDetails();
    document.body.dataset.view = state.view;
    switch (state.view) {
      case "flow": renderFlow(sidebar, canvas); break;
      case "whatif": renderWhatIf(sidebar, canvas); break;
      case "reachability": renderReachability(sidebar, canvas); break;
      case "table": renderTable(sidebar, canvas); break;
      case "lab": renderLab(sidebar, canvas); break;
      case "overview": renderOverview(sidebar, canvas); break;
      default: renderTopology(sidebar, canvas);
    }
    updateAddress();
    markRendered();
  }

  // Tests and the benchmark wait for this: the revision drawn, and when.
  function markRendered() {
    document.body.dataset.revision = state.doc.revision === undefined ? "static" : String(state.doc.revision);
    window.periscopeDrawnAt = Date.now();
  }

  function setDocument(doc) {
    const previous = state.doc;
    // The same revision again (the first revision event can ask for the document while it loads):
    // nothing changed, and redrawing would drop the hop selected meanwhile.
    if (previous && doc.revision !== undefined && previous.revision === doc.revision) return;
    state.doc = doc;
    if (!previous || previous.errors || doc.errors || previous.name !== doc.name) state.flowIndex = 0;
    if (doc.flows && state.flowIndex >= doc.flows.length) state.flowIndex = 0;
    state.whatIf = null;
    if (doc.topology) {
      const gateways = new Set(doc.topology.clusters.flatMap(c => c.hosts.filter(h => h.kind === "gateway").map(h => h.id)));
      state.failed = state.failed.filter(f => gateways.has(f));
    }
    state.selected = null;
    chooseFirstView(doc);
    applyRequestedFlow(doc);
    render();
    if (!doc.errors) applyRequestedHop();
  }

  function clearDetails() {
    document.getElementById("details").replaceChildren(el("p", {"class": "hint", text: "Select a hop of a path to see the packet before and after it."}));
  }

  function start() {
    document.querySelectorAll(".tab").forEach(tab => tab.addEventListener("click", () => {
      state.view = tab.dataset.view;
      state.selected = null;
      render();
    }));
    readAddress();
    const status = document.getElementById("status");
    if (embedded) {
      status.textContent = "static export";
      setDocument(embedded);
      return;
    }
    let loading = null;
    const load = () => {
      loading = api("api/document").then(setDocument).catch(e => { status.textContent = "cannot load: " + e.message; });
      return loading;
    };
    load();
    const events = new EventSource("events");
    events.addEventListener("revision", event => {
      status.textContent = "live · revision " + event.data;
      status.className = "live";
      if (!state.doc || String(state.doc.revision) !== event.data) load();
    });
    events.onerror = () => { status.textContent = "server gone: reconnecting…"; status.className = ""; };
  }

  document.addEventListener("keydown", stepThroughHops);
  start();
})();
