import { configure } from "@testing-library/react";

// A wait's limit only ends a test whose awaited change never comes: beside the Rust tests on a
// busy machine, a change can take longer than the default second to show.
configure({ asyncUtilTimeout: 30_000 });
