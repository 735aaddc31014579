import { describe, expect, it } from "vitest";
import { partialInput } from "./partialInput";

describe("partialInput", () => {
  it("reads the arguments a model has written so far", () => {
    expect(partialInput("")).toBeNull();
    expect(partialInput('{"top')).toEqual({});
    expect(partialInput('{"topic": "wea')).toEqual({ topic: "wea" });
    expect(partialInput('{"topic": "weather", "days": [1, 2')).toEqual({ topic: "weather", days: [1, 2] });
    expect(partialInput('{"topic": "weather"}')).toEqual({ topic: "weather" });
    expect(partialInput("[1, 2")).toBeNull();
  });
});
