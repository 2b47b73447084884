import Foundation
import Instrumentation
import Testing
import WICore
import WILoaderCurl
import WITestServer

/// A trace identifier carried in a service context.
private enum TestTraceKey: ServiceContextKey {
    typealias Value = String
}

/// An instrument that writes the context's trace identifier as `x-test-trace` (a stand-in for an OpenTelemetry
/// propagator writing `traceparent`).
private struct TestInstrument: Instrument {
    func inject<Carrier, Inject: Injector>(
        _ context: ServiceContext, into carrier: inout Carrier, using injector: Inject
    )
    where Inject.Carrier == Carrier {
        if let trace = context[TestTraceKey.self] { injector.inject(trace, forKey: "x-test-trace", into: &carrier) }
    }

    func extract<Carrier, Extract: Extractor>(
        _ carrier: Carrier, into context: inout ServiceContext, using extractor: Extract
    )
    where Extract.Carrier == Carrier {}
}

@Suite struct CurlLoaderTracingTests {
    @Test func injectsTheRequestsTraceContextWithTheInstrument() async throws {
        let server = try await TestHTTPServer.start()
        server.route("/t") { _ in TestResponse(body: Data([1]), contentType: "image/png") }
        let loader = try CurlImageLoader(configuration: testConfiguration { $0.instrument = TestInstrument() })
        var context = ServiceContext.topLevel
        context[TestTraceKey.self] = "trace-1234"
        var request = ImageLoading.Request(url: server.url("/t"))
        let identity = loader.identity(of: request)
        request.serviceContext = context
        // The trace context is not part of the identity: traced and untraced loads share transfers.
        #expect(loader.identity(of: request) == identity)
        _ = await loader.result(request)
        _ = await loader.result(ImageLoading.Request(url: server.url("/t")))
        let seen = server.requests("/t")
        #expect(seen.count == 2)
        #expect(seen.first?.headers["x-test-trace"] == "trace-1234")
        #expect(seen.last?.headers["x-test-trace"] == nil)
        await loader.shutdown()
    }
}
