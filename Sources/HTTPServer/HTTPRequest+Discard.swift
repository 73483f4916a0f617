import CSystem

extension HTTPRequest {
    /// Frees the body's storage now, on the calling thread, for a request whose body nobody reads again (an upload
    /// whose preparation read it): the bytes in memory, and a spool's page cache and blocks (its file keeps its
    /// size, reading as zeros, until the last copy of the request is gone and closes it). Freeing the pages of a
    /// 255 MiB spool is some milliseconds of kernel work: done here, by the heavy-work pool's thread at the lowest
    /// priority, rather than by whichever thread drops the request last (the worker answering it). The body reads
    /// empty afterwards.
    public mutating func discardBody() {
        body = []
        guard let extras else { return }
        if let spooled = extras.spooled, spooled.count > 0 {
            _ = csystem_punch_hole(spooled.descriptor, Int64(spooled.count))
        }
        self.extras = RequestBodyExtras(spooled: nil, sharingLeaseOf: extras, gzipLimit: extras.gzipLimit)
    }
}
