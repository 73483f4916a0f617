import Foundation

/// The forecast's progress on standard error: a bar redrawn in place on a terminal, else a line at each tenth.
final class ForecastProgressBar {
    private let interactive: Bool
    private var shownTenths = -1
    private var drawn = false

    init(interactive: Bool) {
        self.interactive = interactive
    }

    /// Shows `share` (0–1) done.
    func show(_ share: Double) {
        let share = min(1, max(0, share.isFinite ? share : 0))
        if interactive {
            FileHandle.standardError.write(Data(("\r" + Self.bar(share)).utf8))
            drawn = true
        } else {
            let tenths = Int((share * 10).rounded(.down))
            guard tenths > shownTenths else { return }
            shownTenths = tenths
            Terminal.error("forecast: \(tenths * 10) %")
        }
    }

    /// Ends the bar's line.
    func finish() {
        if interactive, drawn { FileHandle.standardError.write(Data("\n".utf8)) }
        drawn = false
    }

    /// `[#########...........]  42 %`, 30 cells wide.
    static func bar(_ share: Double, width: Int = 30) -> String {
        let filled = Int((share * Double(width)).rounded(.down))
        let percent = Int((share * 100).rounded(.down))
        let padded = String(repeating: " ", count: max(0, 3 - String(percent).count)) + String(percent)
        return "[" + String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled) + "] "
            + padded + " %"
    }
}
