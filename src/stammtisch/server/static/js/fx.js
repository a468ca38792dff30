// Motion and sound at the table, as in online card rooms: a played card flies from its
// seat to the trick, a taken trick flies to its winner, the deal is shown; short sounds
// for one's turn, a card, a trick and Kontra.  Both can be switched off (localStorage
// stammtisch_motion / stammtisch_sound, "on"/"off"); motion is always off when the
// system asks for reduced motion.  Everything here is decoration: the DOM already shows
// the new state when an animation starts (the Web Animations API moves the element from
// where it came from to where it is; a taken trick flies as aria-hidden copies), and
// nothing waits for an animation to end.  Sounds are synthesised (WebAudio), no files.

const MOTION_KEY = "stammtisch_motion";
const SOUND_KEY = "stammtisch_sound";
const reducedQuery = window.matchMedia("(prefers-reduced-motion: reduce)");

// counters for the tests (how many animations started, which sounds played)
const stats = { animations: 0, sounds: [] };
window.__stammtischFx = stats;

export function reducedMotion() {
  return reducedQuery.matches;
}

function stored(key) {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

function store(key, on) {
  try {
    localStorage.setItem(key, on ? "on" : "off");
  } catch {
    // private mode: the choice lasts for this page only
  }
}

export function motionSetting() {
  return stored(MOTION_KEY) !== "off";
}

export function motionOn() {
  return motionSetting() && !reducedMotion();
}

export function soundOn() {
  const s = stored(SOUND_KEY);
  return s === null ? !reducedMotion() : s === "on";
}

export function setMotion(on) {
  store(MOTION_KEY, on);
  applyMotionClass();
}

export function setSound(on) {
  store(SOUND_KEY, on);
}

// CSS transitions (hover lifts, the trick's slots) follow the motion setting too
export function applyMotionClass() {
  document.documentElement.classList.toggle("no-motion", !motionOn());
}
reducedQuery.addEventListener?.("change", applyMotionClass);
applyMotionClass();

function animate(el, keyframes, options) {
  if (!motionOn() || !el?.animate) return null;
  stats.animations += 1;
  return el.animate(keyframes, { easing: "cubic-bezier(.2,.7,.3,1)", fill: "backwards",
    ...options });
}

const center = (r) => ({ x: r.left + r.width / 2, y: r.top + r.height / 2 });

// el (already in its place) appears to come from the rectangle `from`
export function flyFrom(el, from, { duration = 280, delay = 0, scale = 0.7 } = {}) {
  if (!el || !from) return;
  const to = center(el.getBoundingClientRect());
  const f = center(from);
  const dx = f.x - to.x;
  const dy = f.y - to.y;
  // translate/scale compose with the element's own transform (a fanned card's rotation)
  animate(el, [{ translate: `${dx}px ${dy}px`, scale: String(scale), opacity: 0.6 },
    { translate: "0 0", scale: "1", opacity: 1 }], { duration, delay });
}

// copies of `els` (rectangles taken before they left the DOM) fly to `target`
export function ghostsTo(rects, cards, target, { duration = 420 } = {}) {
  if (!motionOn() || !target || !rects.length) return;
  const t = center(target);
  rects.forEach((r, k) => {
    const ghost = cards[k].cloneNode(true);
    ghost.classList.add("fx-ghost");
    ghost.setAttribute("aria-hidden", "true");
    ghost.removeAttribute("id");
    Object.assign(ghost.style, { position: "fixed", left: `${r.left}px`, top: `${r.top}px`,
      width: `${r.width}px`, height: `${r.height}px`, margin: "0", zIndex: "40",
      pointerEvents: "none" });
    document.body.append(ghost);
    const c = center(r);
    const a = animate(ghost, [{ transform: "none", opacity: 1 },
      { transform: `translate(${t.x - c.x}px, ${t.y - c.y}px) scale(0.35)`, opacity: 0 }],
    { duration, fill: "forwards" });
    if (a) a.finished.catch(() => {}).finally(() => ghost.remove());
    else ghost.remove();
  });
}

// -- sounds ---------------------------------------------------------------------------------
let audio = null;

function context() {
  if (!audio) {
    const Ctx = window.AudioContext || window.webkitAudioContext;
    if (!Ctx) return null;
    try {
      audio = new Ctx();
    } catch {
      return null;
    }
  }
  if (audio.state === "suspended") audio.resume().catch(() => {});
  return audio;
}

function tone(ctx, { freq, type = "sine", start = 0, length = 0.12, gain = 0.18, to = null,
  noise = false }) {
  const t0 = ctx.currentTime + start;
  const g = ctx.createGain();
  g.gain.setValueAtTime(0.0001, t0);
  g.gain.exponentialRampToValueAtTime(gain, t0 + 0.01);
  g.gain.exponentialRampToValueAtTime(0.0001, t0 + length);
  g.connect(ctx.destination);
  let src;
  if (noise) {
    const buf = ctx.createBuffer(1, Math.ceil(ctx.sampleRate * length), ctx.sampleRate);
    const data = buf.getChannelData(0);
    for (let i = 0; i < data.length; i++) data[i] = (Math.random() * 2 - 1) * (1 - i / data.length);
    src = ctx.createBufferSource();
    src.buffer = buf;
    const band = ctx.createBiquadFilter();
    band.type = "bandpass";
    band.frequency.value = freq;
    src.connect(band);
    band.connect(g);
  } else {
    src = ctx.createOscillator();
    src.type = type;
    src.frequency.setValueAtTime(freq, t0);
    if (to) src.frequency.exponentialRampToValueAtTime(to, t0 + length);
    src.connect(g);
  }
  src.start(t0);
  src.stop(t0 + length + 0.02);
}

const SOUNDS = {
  // a soft two-note chime
  turn: (c) => {
    tone(c, { freq: 660, length: 0.16 });
    tone(c, { freq: 880, start: 0.12, length: 0.22 });
  },
  // a card on the felt: a short filtered noise slap
  card: (c) => tone(c, { freq: 1800, noise: true, length: 0.07, gain: 0.3 }),
  // a trick swept in: a falling whoosh
  trick: (c) => tone(c, { freq: 900, to: 300, type: "triangle", length: 0.2, gain: 0.1 }),
  // Kontra: a knock on the table, twice
  kontra: (c) => {
    tone(c, { freq: 140, to: 90, type: "square", length: 0.09, gain: 0.16 });
    tone(c, { freq: 140, to: 90, type: "square", start: 0.13, length: 0.09, gain: 0.16 });
  },
};

export function playSound(kind) {
  if (!soundOn() || !SOUNDS[kind]) return;
  stats.sounds.push(kind);
  const ctx = context();
  if (!ctx) return;
  try {
    SOUNDS[kind](ctx);
  } catch {
    // sound is decoration: never let it break the table
  }
}
