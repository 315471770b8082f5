# result.awk: webload's -j document out of a container log, which holds the container's stderr
# lines among its stdout lines (run.sh). The document is "{", lines indented by two spaces, and
# "}"; webload's stderr lines never begin with a space or a brace. So this keeps the document's
# lines, wherever a stderr line fell between them, and drops every other line.
/^[{}]$/ || /^  / { print }
