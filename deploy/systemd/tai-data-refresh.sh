#!/bin/sh
# The daily refresh, proposed as a pull request (tai-data-refresh.service runs it; README
# "Refreshing the data"). In $TAI_REFRESH_HOME/repo, a clone of $TAI_REFRESH_REPO: the branch
# $TAI_REFRESH_BRANCH (default data-refresh) is reset to origin/main, `npm run data:refresh`
# runs, and when data/ changed the branch is pushed and its pull request opened (or its
# description updated) with the refresh summary, through the GitHub CLI (GH_TOKEN).
# Exit status: the refresh's (0; 3 when figures are past their maximum age; 4 when reads or texts
# were kept out: the pull request carries the report and the unit still fails, so an operator
# looks), else the failing step's. Nothing is pushed when the refresh fails (1: it has put every
# file back) or could read no source (5: nothing written, the dataset date kept).
set -eu

home=${TAI_REFRESH_HOME:?set TAI_REFRESH_HOME}
repo_url=${TAI_REFRESH_REPO:?set TAI_REFRESH_REPO (the repository to clone and push to)}
branch=${TAI_REFRESH_BRANCH:-data-refresh}
checkout=$home/repo
summary=$home/refresh-summary.md

# Git pushes over HTTPS with the same token the GitHub CLI uses.
if [ -n "${GH_TOKEN:-}" ]; then
  gh auth setup-git
fi
if [ ! -d "$checkout/.git" ]; then
  git clone --quiet "$repo_url" "$checkout"
fi
cd "$checkout"
git fetch --quiet origin main
git checkout --quiet -B "$branch" origin/main
npm ci --no-audit --no-fund --loglevel=error

status=0
npm run --silent data:refresh -- --summary "$summary" || status=$?
case $status in
  0 | 3 | 4) ;;
  *) exit "$status" ;;
esac

if git diff --quiet -- data && [ -z "$(git status --porcelain -- data)" ]; then
  echo "data/ unchanged: no pull request"
  exit "$status"
fi

day=$(date -u +%Y-%m-%d)
git add -- data
git -c user.name="${TAI_REFRESH_GIT_NAME:-TAI data refresh}" \
  -c user.email="${TAI_REFRESH_GIT_EMAIL:-data-refresh@localhost}" \
  commit --quiet -m "Data refresh of $day (npm run data:refresh)"
git push --quiet --force origin "$branch"

if gh pr view "$branch" --json state --jq .state 2>/dev/null | grep -q OPEN; then
  gh pr edit "$branch" --title "Data refresh of $day" --body-file "$summary"
else
  gh pr create --base main --head "$branch" --title "Data refresh of $day" --body-file "$summary"
fi
exit "$status"
