// icons.js — the app's own icons, drawn as inline SVG in the text's colour, so that they look the
// same on every machine (an emoji depends on the fonts installed, and is an empty box without them).

const SVG = 'http://www.w3.org/2000/svg';

/**
 * Each icon on a 20×20 grid: [tag, attributes] drawn with the current text colour.
 * @type {Record<'lock' | 'pencil' | 'warning' | 'clock' | 'check' | 'search', Array<[string, Record<string, string | number>]>>}
 */
const SHAPES = {
  lock: [
    ['rect', { x: 4, y: 9, width: 12, height: 8.5, rx: 2, fill: 'currentColor' }],
    ['path', { d: 'M7 9V6.5a3 3 0 0 1 6 0V9', fill: 'none', stroke: 'currentColor', 'stroke-width': 1.8, 'stroke-linecap': 'round' }],
  ],
  pencil: [
    ['path', { d: 'M4 16l1-3.6L13.2 4.2a1.4 1.4 0 0 1 2 0l.6.6a1.4 1.4 0 0 1 0 2L7.6 15 4 16z', fill: 'none', stroke: 'currentColor',
      'stroke-width': 1.6, 'stroke-linejoin': 'round' }],
  ],
  warning: [
    ['path', { d: 'M10 3.2l7.3 13H2.7z', fill: 'none', stroke: 'currentColor', 'stroke-width': 1.7, 'stroke-linejoin': 'round' }],
    ['path', { d: 'M10 8.2v3.6', stroke: 'currentColor', 'stroke-width': 1.8, 'stroke-linecap': 'round' }],
    ['circle', { cx: 10, cy: 14, r: 1, fill: 'currentColor' }],
  ],
  clock: [
    ['circle', { cx: 10, cy: 10, r: 6.8, fill: 'none', stroke: 'currentColor', 'stroke-width': 1.7 }],
    ['path', { d: 'M10 6.2V10l2.6 1.8', fill: 'none', stroke: 'currentColor', 'stroke-width': 1.7, 'stroke-linecap': 'round' }],
  ],
  check: [
    ['path', { d: 'M4.5 10.5l3.5 3.5 7.5-8', fill: 'none', stroke: 'currentColor', 'stroke-width': 2, 'stroke-linecap': 'round',
      'stroke-linejoin': 'round' }],
  ],
  search: [
    ['circle', { cx: 8.6, cy: 8.6, r: 5, fill: 'none', stroke: 'currentColor', 'stroke-width': 1.8 }],
    ['path', { d: 'M12.4 12.4L16.5 16.5', stroke: 'currentColor', 'stroke-width': 2, 'stroke-linecap': 'round' }],
  ],
};

/**
 * An inline SVG icon, hidden from screen readers (the text next to it says what it means).
 * @param {keyof typeof SHAPES} name
 * @returns {SVGSVGElement}
 */
export function icon(name) {
  const svg = document.createElementNS(SVG, 'svg');
  svg.setAttribute('viewBox', '0 0 20 20');
  svg.setAttribute('class', `icon icon-${name}`);
  svg.setAttribute('data-icon', name);
  svg.setAttribute('aria-hidden', 'true');
  svg.setAttribute('focusable', 'false');
  for (const [tag, attrs] of SHAPES[name]) {
    const shape = document.createElementNS(SVG, tag);
    Object.entries(attrs).forEach(([attr, value]) => shape.setAttribute(attr, String(value)));
    svg.appendChild(shape);
  }
  return svg;
}
