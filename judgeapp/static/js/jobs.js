// The job page (events/job.html) follows its job: it asks the job's JSON view every second and moves the bar and the
// counts; once the job has ended it loads the page again, which then shows the result. No text of its own: the labels
// come translated in the JSON.
const box = document.getElementById("job");

async function poll() {
  let job;
  try {
    const answer = await fetch(box.dataset.jobUrl, { headers: { Accept: "application/json" }, credentials: "same-origin" });
    if (!answer.ok) return setTimeout(poll, 3000);
    job = await answer.json();
  } catch {
    return setTimeout(poll, 3000); // offline a moment: try again
  }
  if (job.ended) {
    window.location.reload();
    return;
  }
  document.getElementById("job-state").textContent = job.state_label;
  const bar = document.getElementById("job-progress");
  bar.max = job.total || 1;
  bar.value = job.total ? job.done : 0;
  bar.labels.forEach((label) => { label.textContent = job.counting; });
  const count = document.getElementById("job-count");
  count.textContent = job.total == null ? `${job.done}` : `${job.done} / ${job.total}`;
  const list = document.getElementById("job-counts");
  list.replaceChildren(
    ...job.counts.map((c) => {
      const row = document.createElement("div");
      const dt = document.createElement("dt");
      const dd = document.createElement("dd");
      dt.textContent = c.label;
      dd.textContent = c.value;
      dd.dataset.jobCount = c.key;
      row.append(dt, dd);
      return row;
    }),
  );
  setTimeout(poll, 1000);
}

if (box && !["done", "failed"].includes(box.dataset.jobState)) setTimeout(poll, 1000);
