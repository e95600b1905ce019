/**
 * The checkout pages' one script (plain ES2017, no framework, no build step), served by
 * checkout-assets.ts. Progressive enhancement only: the page reads and submits without it. It polls
 * the attempt's status, counts down a bank transfer's deadline, shows the copy buttons, predicts the
 * network from the phone number, opens the PIN field for a Verve card, and reveals "Didn't get the
 * prompt?". Its data comes from the page's <script type="application/json" id="checkout-data">.
 * It never reads, keeps or sends a card number anywhere but the form it belongs to.
 */
export const CHECKOUT_SCRIPT = String.raw`(function () {
  'use strict';
  var el = document.getElementById('checkout-data');
  var d;
  try { d = el ? JSON.parse(el.textContent) : null; } catch (e) { d = null; }
  if (!d) return;
  document.documentElement.classList.add('js');
  var t = d.t || {};
  var $ = function (id) { return document.getElementById(id); };
  var fill = function (s, v) { return String(s).replace(/\{(\w+)\}/g, function (w, k) { return k in v ? v[k] : w; }); };
  var announce = $('announce');
  var say = function (text) {
    if (!announce) return;
    announce.textContent = '';
    setTimeout(function () { announce.textContent = text; }, 60);
  };

  if (d.poll && window.fetch) {
    var busy = false;
    setInterval(function () {
      if (busy || document.hidden) return;
      busy = true;
      fetch(d.statusUrl, { headers: { accept: 'application/json' }, credentials: 'same-origin', cache: 'no-store' })
        .then(function (r) { return r.ok ? r.json() : null; })
        .then(function (j) {
          busy = false;
          if (!j) return;
          var a = j.attempt && typeof j.attempt === 'object' ? j.attempt.status : j.attempt;
          if (j.status !== d.status || (a || null) !== d.attempt) location.reload();
        }, function () { busy = false; });
    }, 2000);
  }

  var countdown = $('countdown');
  if (countdown && d.expires && typeof d.expiresIn === 'number') {
    var until = Date.now() + d.expiresIn;
    var clock = new Date(until).toLocaleTimeString(d.lang === 'fr' ? 'fr-FR' : 'en-GB', { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
    var tick = function () {
      var min = Math.ceil((until - Date.now()) / 60000);
      var left = min <= 0 ? t.expiredNow : min === 1 ? t.aboutMinute : min < 120 ? fill(t.aboutMinutes, { n: min }) : fill(t.aboutHours, { n: Math.round(min / 60) });
      countdown.textContent = fill(t.payBefore, { time: clock, left: left });
    };
    tick();
    setInterval(tick, 15000);
  }

  var retry = $('retry');
  if (retry && typeof d.retryIn === 'number') {
    setTimeout(function () { retry.classList.remove('later'); }, Math.max(0, d.retryIn));
  }

  if (navigator.clipboard && window.isSecureContext) {
    Array.prototype.forEach.call(document.querySelectorAll('button.copy'), function (b) {
      var label = b.textContent;
      b.hidden = false;
      b.addEventListener('click', function () {
        navigator.clipboard.writeText(b.getAttribute('data-copy') || '').then(function () {
          b.textContent = t.copied;
          say(t.copied);
          setTimeout(function () { b.textContent = label; }, 2000);
        }, function () {});
      });
    });
  }

  var phone = $('momo-phone');
  var select = $('momo-network');
  var hint = $('momo-predicted');
  var p = d.prefixes;
  if (phone && hint && p) {
    var chosen = false;
    if (select) select.addEventListener('change', function () { chosen = select.value !== ''; });
    var offered = function (code) {
      return !!select && Array.prototype.some.call(select.options, function (o) { return o.value === code; });
    };
    var predict = function () {
      var n = phone.value.replace(/[\s().-]/g, '');
      if (n.charAt(0) === '+') { n = n.slice(1); if (n.indexOf(p.dial) === 0) n = n.slice(p.dial.length); }
      else if (n.indexOf('00' + p.dial) === 0) n = n.slice(2 + p.dial.length);
      else if (p.trunk && n.indexOf(p.trunk) === 0) n = n.slice(p.trunk.length);
      else if (n.indexOf(p.dial) === 0 && n.length > p.dial.length + 6) n = n.slice(p.dial.length);
      if (n.charAt(0) === '0' && p.trunk) n = n.slice(1);
      var best = '';
      for (var k in p.prefixes) if (n.indexOf(k) === 0 && k.length > best.length) best = k;
      var code = best ? p.prefixes[best] : '';
      var text = code ? fill(t.predicted, { network: d.networks[code] || code }) : '';
      if (hint.textContent !== text) hint.textContent = text;
      if (select && !chosen) select.value = code && offered(code) ? code : '';
    };
    phone.addEventListener('input', predict);
    predict();
  }

  var card = $('card-number');
  var pinBox = $('card-pin-box');
  if (card && pinBox) {
    card.addEventListener('input', function () {
      var n = card.value.replace(/\D/g, '');
      var bin = Number(n.slice(0, 6));
      if (n.length >= 6 && ((bin >= 506099 && bin <= 506198) || (bin >= 650002 && bin <= 650027))) pinBox.open = true;
    });
  }

  Array.prototype.forEach.call(document.querySelectorAll('form'), function (f) {
    f.addEventListener('submit', function () {
      var b = f.querySelector('button[type=submit]');
      if (b) setTimeout(function () { b.disabled = true; }, 0);
    });
  });
})();
`;
