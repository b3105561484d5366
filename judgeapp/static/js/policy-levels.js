// Event settings: the level list offers the chosen policy's own levels only (each policy names its levels its own way:
// "Level 2", "Competitive REL"). Rebuilt rather than hidden: Safari ignores hidden <option>s. Without script, every
// policy's levels are listed under its name and the server refuses a level the policy does not have.
var policy = document.getElementById("policy_id"), level = document.getElementById("level");
if (policy && level) {
  var groups = Array.prototype.slice.call(level.querySelectorAll("optgroup")).map(function (g) {
    var first = g.querySelector("option");
    return { policy: first ? first.dataset.policy : "", node: g };
  });
  var show = function () {
    var keep = level.value, wanted = groups.filter(function (g) { return g.policy === policy.value; })[0];
    if (!wanted) return;
    var stillThere = wanted.node.querySelector("option[value='" + keep + "']");
    level.textContent = "";
    level.appendChild(wanted.node);
    if (stillThere) stillThere.selected = true;
  };
  // The page may come back with this policy's level chosen (a refused save): pick it inside its own group.
  var chosen = level.querySelector("option[selected][data-policy='" + policy.value + "']");
  show();
  if (chosen) chosen.selected = true;
  policy.addEventListener("change", show);
}
