import Emulation
import Foundation

/// Where the tenants' forecasts (issue 14) are kept: their state, progress, request, and when done their result and
/// per-device CSV. Each forecast belongs to one tenant; every lookup names the tenant, so another tenant's forecast
/// is never found.
public protocol ForecastStore: Sendable {
    /// Stores a new forecast, then deletes the tenant's oldest finished forecasts past `keepingAtMost`, in one
    /// transaction.
    func insert(_ forecast: ForecastRecord, keepingAtMost limit: Int) throws
    /// Records a running forecast's progress (0–1); nothing when it is gone or no longer running.
    func updateProgress(tenantId: String, id: String, progress: Double) throws
    /// Records a forecast's end: its state, progress, result or failure, throughput, end time and (when done) its
    /// CSV. False when the forecast is gone (deleted meanwhile).
    @discardableResult
    func finish(_ forecast: ForecastRecord, csv: String?) throws -> Bool
    /// The tenant's forecast with its result.
    func forecast(tenantId: String, id: String) throws -> ForecastRecord?
    /// The tenant's forecasts, newest first, without their results.
    func forecasts(tenantId: String) throws -> [ForecastRecord]
    /// The per-device CSV of the tenant's forecast; nil when there is no such forecast or it is not done.
    func csv(tenantId: String, id: String) throws -> String?
    /// Deletes the tenant's forecast; false when there was none.
    func delete(tenantId: String, id: String) throws -> Bool
    /// Marks every running forecast (of any tenant) failed with `failure`, finished at `date`: on start-up, the
    /// runs of the process before are gone. Answers how many there were.
    @discardableResult
    func failRunning(_ failure: ForecastFailure, at date: Date) throws -> Int
}
