// Pointing at a square shows what the data says of it for every evaluation: on a board, each
// piece's contribution; on a heat map, each evaluation's average for that piece there.
(function () {
  var data = JSON.parse(document.getElementById('cutoff-data').textContent);
  var hover = document.getElementById('hover');
  var files = 'abcdefgh';
  function name(sq) { return files[sq % 8] + (Math.floor(sq / 8) + 1); }
  function pawns(cp) {
    if (cp === null || cp === undefined) return '.';
    return (cp > 0 ? '+' : cp < 0 ? '-' : ' ') + (Math.abs(cp) / 100).toFixed(2);
  }
  document.querySelectorAll('rect.sq').forEach(function (r) {
    r.addEventListener('mouseenter', function () {
      var sq = +r.getAttribute('data-sq');
      hover.textContent = name(sq) + ': ' + data.evaluations.map(function (e) {
        var c = e.cells[sq];
        return e.name + ' ' + (c ? c.piece + ' ' + pawns(c.value) : 'empty');
      }).join(', ');
    });
  });
  document.querySelectorAll('rect.hm').forEach(function (r) {
    r.addEventListener('mouseenter', function () {
      var sq = +r.getAttribute('data-sq');
      var i = +r.parentNode.id.split('-').pop();
      hover.textContent = data.evaluations[0].maps[i].piece + ' on ' + name(sq) + ': ' +
        data.evaluations.map(function (e) {
          var m = e.maps[i];
          return e.name + ' ' + (m.mean[sq] === null ? '.' : pawns(Math.round(m.mean[sq])) +
            ' (' + m.count[sq] + ' positions)');
        }).join(', ');
    });
  });
  // What the script found, where a headless browser's DOM dump shows it.
  document.documentElement.setAttribute('data-squares',
    String(document.querySelectorAll('rect.sq').length));
  document.documentElement.setAttribute('data-heat',
    String(document.querySelectorAll('rect.hm').length));
  document.documentElement.setAttribute('data-ready', 'yes');
})();
