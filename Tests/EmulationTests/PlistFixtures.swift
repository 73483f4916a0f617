import Foundation

/// Info.plist files written by Python's `plistlib`, an implementation independent of Foundation's.
enum PlistFixtures {
    static let weatherXML = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        <dict>
        	<key>BGTaskSchedulerPermittedIdentifiers</key>
        	<array>
        		<string>com.example.weather.refresh</string>
        		<string>com.example.weather.cleanup</string>
        	</array>
        	<key>CFBundleIdentifier</key>
        	<string>com.example.weather</string>
        	<key>CFBundleName</key>
        	<string>Weather</string>
        	<key>UIApplicationExitsOnSuspend</key>
        	<false/>
        	<key>UIBackgroundModes</key>
        	<array>
        		<string>fetch</string>
        		<string>processing</string>
        		<string>remote-notification</string>
        	</array>
        </dict>
        </plist>
        """

    /// The same dictionary as `weatherXML`, as `plistlib.dumps(d, fmt=FMT_BINARY)` writes it.
    static let weatherBinary = Array(Data(base64Encoded: """
        YnBsaXN0MDDVAQIDBAUGCQoLDF8QI0JHVGFza1NjaGVkdWxlclBlcm1pdHRlZElkZW50aWZpZXJzXxASQ0ZCdW5kbGVJZGVudGlmaWVyXENGQnVu\
        ZGxlTmFtZV8QG1VJQXBwbGljYXRpb25FeGl0c09uU3VzcGVuZF8QEVVJQmFja2dyb3VuZE1vZGVzogcIXxAbY29tLmV4YW1wbGUud2VhdGhlci5y\
        ZWZyZXNoXxAbY29tLmV4YW1wbGUud2VhdGhlci5jbGVhbnVwXxATY29tLmV4YW1wbGUud2VhdGhlcldXZWF0aGVyCKMNDg9VZmV0Y2hacHJvY2Vz\
        c2luZ18QE3JlbW90ZS1ub3RpZmljYXRpb24ACAATADkATgBbAHkAjQCQAK4AzADiAOoA6wDvAPUBAAAAAAAAAAIBAAAAAAAAABAAAAAAAAAAAAAA\
        AAAAAAEW
        """)!)
}
