import BackgroundTasks
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import UIKit

/// Fetches the headlines from the app's server with `URLSession`'s `async` API, in the background from its refresh
/// task and in the foreground under a background task, and keeps when it last did.
final class HeadlinesRefresher: Sendable {
    static let identifier = "com.example.headlines.refresh"
    /// Headlines older than this are refreshed when the app comes back.
    static let staleAfter: TimeInterval = 3600

    /// The server's headlines, or the one the `HeadlinesServerURL` default names (a staging server, a test's stub).
    static var endpoint: URL {
        UserDefaults.standard.string(forKey: "HeadlinesServerURL").flatMap(URL.init(string:))
            ?? URL(string: "https://headlines.example.com/v1/headlines")!
    }

    let log = RefreshLog()

    func registerLaunchHandler() {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: Self.identifier, using: nil) { task in
            self.handleRefresh(task as! BGAppRefreshTask)
        }
    }

    /// Asks for the next refresh, 30 minutes from now at the earliest.
    func scheduleRefresh() {
        let request = BGAppRefreshTaskRequest(identifier: Self.identifier)
        request.earliestBeginDate = Date(timeIntervalSinceNow: 30 * 60)
        do {
            try BGTaskScheduler.shared.submit(request)
            log.scheduled()
        } catch {
            log.failed("Could not schedule the refresh: \(error)")
        }
    }

    /// Refreshes now when the last refresh is over an hour old (by the wall clock, `Date()`), finishing the fetch
    /// under a background task should the user leave meanwhile.
    func refreshIfStale() {
        if let last = log.lastRefresh, Date().timeIntervalSince(last) < Self.staleAfter { return }
        let application = UIApplication.shared
        let backgroundTask = application.beginBackgroundTask(withName: "RefreshHeadlines")
        Task {
            do {
                try await fetchHeadlines()
            } catch {
                log.failed("The foreground refresh failed: \(error)")
            }
            application.endBackgroundTask(backgroundTask)
        }
    }

    private func handleRefresh(_ task: BGAppRefreshTask) {
        let fetch = Task {
            do {
                try await fetchHeadlines()
                task.setTaskCompleted(success: true)
            } catch {
                log.failed("The refresh failed: \(error)")
                task.setTaskCompleted(success: false)
            }
            scheduleRefresh()
        }
        task.expirationHandler = { [log] in
            log.failed("The refresh expired")
            fetch.cancel()
        }
    }

    private func fetchHeadlines() async throws {
        let (data, response) = try await URLSession.shared.data(from: Self.endpoint)
        guard (response as? HTTPURLResponse)?.statusCode == 200 else { throw URLError(.badServerResponse) }
        let headlines = try JSONDecoder().decode([String].self, from: data)
        log.refreshed(headlines, at: Date())
    }
}
