-- wrk script: each request is the next path of the file named by $MMSEARCH_PATHS (one a line), in
-- turn, each thread starting at its own place; the keystroke workload as HTTP requests.
local paths = {}
for line in io.lines(os.getenv("MMSEARCH_PATHS")) do paths[#paths + 1] = line end
local position = 0
local thread_count = 0

function setup(thread)
  thread:set("start", thread_count * 7919)
  thread_count = thread_count + 1
end

function init(args)
  position = (start or 0) % #paths
end

function request()
  position = position % #paths + 1
  return wrk.format("GET", paths[position])
end
