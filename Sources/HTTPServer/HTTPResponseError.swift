/// An error that knows the response it should become. The server converts thrown errors at one place: an
/// `HTTPResponseError` renders itself, anything else is logged and answered `500` with a generic detail.
public protocol HTTPResponseError: Error {
    var status: HTTPStatus { get }
    func response() -> HTTPResponse
}
