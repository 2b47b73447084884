import Foundation
import Logging
import ServiceLifecycle
import ServiceLifecycleTestKit
import Testing
import WICore
import WIServiceLifecycle
import WITestSupport

@Suite struct ImageManagerServiceTests {
    @Test func gracefulShutdownShutsTheManagerDown() async throws {
        let loader = MockLoader()
        let coder = MockCoder(magic: "MOCK", marker: 7)
        let manager = ImageManager(
            cache: TieredImageCache(memory: nil, dataTiers: [], coders: coder), loader: loader,
            coders: coder)
        let url = URL(string: "mock://host/a.png")!
        loader.register(url, data: coder.data(width: 4, height: 4))
        _ = try await manager.loadImage(with: url)
        let service = ImageManagerService(manager)
        try await testGracefulShutdown { trigger in
            let running = Task { try await service.run() }
            trigger.triggerGracefulShutdown()
            try await running.value
        }
        let error = await #expect(throws: ImageError.self) { try await manager.loadImage(with: url) }
        #expect(error?.code == .shutDown)
    }
}
