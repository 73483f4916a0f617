import Synchronization

/// Jobs queued by key and taken round-robin across keys: a key with a thousand jobs waiting gets one turn, then
/// every other key with work gets one, so one busy client cannot starve a quiet one. Jobs of one key run in the
/// order they were queued (when one worker takes them; the pool makes no promise across workers).
struct FairWorkQueue<Job> {
    /// Each key's jobs, oldest first, and where its unread part starts.
    private var queues: [String: (jobs: [Job], head: Int)] = [:]
    /// The keys with jobs, in turn order, and whose turn is next.
    private var ring: [String] = []
    private var turn = 0
    private(set) var count = 0

    mutating func append(_ job: Job, key: String) {
        if queues[key] == nil {
            queues[key] = ([job], 0)
            // A key that had no work joins the ring just before the one whose turn is next: it waits for one
            // round at most.
            ring.insert(key, at: turn)
            turn += 1
            if turn >= ring.count { turn = 0 }
        } else {
            queues[key]!.jobs.append(job)
        }
        count += 1
    }

    /// The next job in turn, or nil when none waits.
    mutating func next() -> Job? {
        guard !ring.isEmpty else { return nil }
        if turn >= ring.count { turn = 0 }
        let key = ring[turn]
        var queue = queues.removeValue(forKey: key)!
        let job = queue.jobs[queue.head]
        queue.head += 1
        count -= 1
        if queue.head == queue.jobs.count {
            ring.remove(at: turn)  // the next key now sits at `turn`
        } else {
            if queue.head >= 64, queue.head * 2 >= queue.jobs.count {
                queue.jobs.removeFirst(queue.head)
                queue.head = 0
            }
            queues[key] = queue
            turn += 1
        }
        return job
    }
}
