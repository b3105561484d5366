// An appeal's decision: the "counts as one of the player's challenges" box follows the decision chosen. Only an
// upheld ruling uses a challenge (an overturned or changed one never does, as the help under the box says), so for
// those the box is unticked and cannot be ticked; back on "Upheld" it is as the head judge last left it. Without
// script the server ignores the box for any decision but "Upheld".
var box = document.getElementById("count_challenge"), help = document.getElementById("challenge-help");
var form = box && box.form;
if (box && help && form) {
  var wanted = box.disabled ? true : box.checked;  // what "Upheld" shows: ticked unless the head judge unticked it
  var follow = function () {
    var chosen = form.querySelector("input[name=outcome]:checked");
    var spends = !chosen || chosen.value === "upheld";
    if (spends) {
      box.disabled = false;
      box.checked = wanted;
    } else {
      if (!box.disabled) wanted = box.checked;
      box.checked = false;
      box.disabled = true;
    }
    help.textContent = spends ? help.dataset.upheld : help.dataset.other;
  };
  form.querySelectorAll("input[name=outcome]").forEach(function (radio) { radio.addEventListener("change", follow); });
  box.addEventListener("change", function () { wanted = box.checked; });
  follow();
}
