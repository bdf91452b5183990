import { describe, expect, it } from "vitest";
import { detectImageType } from "./store-upload.ts";

const bytes = (...values: number[]) => Uint8Array.from(values);
const withTail = (head: number[]) => Uint8Array.from([...head, ...Array.from({ length: 32 }, (_, i) => i)]);

describe("detectImageType: the type comes from the first bytes, never the name", () => {
  it("recognises JPEG (FF D8 FF)", () => {
    expect(detectImageType(withTail([0xff, 0xd8, 0xff, 0xe0]))).toBe("image/jpeg");
    expect(detectImageType(withTail([0xff, 0xd8, 0xff, 0xe1]))).toBe("image/jpeg");
  });

  it("recognises PNG by its full 8-byte signature", () => {
    const png = Buffer.from(
      "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
      "base64",
    );
    expect(detectImageType(png)).toBe("image/png");
    // The first four bytes alone are not enough.
    expect(detectImageType(withTail([0x89, 0x50, 0x4e, 0x47, 0x00, 0x00, 0x00, 0x00]))).toBeNull();
  });

  it("recognises JPEG 2000, as a JP2 file and as a raw codestream", () => {
    const jp2 = [0x00, 0x00, 0x00, 0x0c, 0x6a, 0x50, 0x20, 0x20, 0x0d, 0x0a, 0x87, 0x0a];
    expect(detectImageType(withTail(jp2))).toBe("image/jp2");
    expect(detectImageType(withTail([0xff, 0x4f, 0xff, 0x51]))).toBe("image/jp2");
  });

  it("refuses text, other formats and truncated signatures", () => {
    expect(
      detectImageType(new TextEncoder().encode("this is not an image, whatever the name says")),
    ).toBeNull();
    expect(detectImageType(new TextEncoder().encode("GIF89a\x01\x00"))).toBeNull();
    expect(detectImageType(new TextEncoder().encode("<svg xmlns='http://www.w3.org/2000/svg'/>"))).toBeNull();
    expect(detectImageType(bytes(0x25, 0x50, 0x44, 0x46))).toBeNull(); // %PDF
    expect(detectImageType(bytes())).toBeNull();
    expect(detectImageType(bytes(0xff, 0xd8))).toBeNull();
    expect(detectImageType(bytes(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a))).toBeNull();
  });
});
