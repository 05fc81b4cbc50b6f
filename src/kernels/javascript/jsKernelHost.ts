// Placeholder replaced by the JavaScript kernel host (issue 6).
export {};
