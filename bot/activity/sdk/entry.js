// What the Activity's page uses of Discord's Embedded App SDK, bundled into one file.
export { DiscordSDK } from "@discord/embedded-app-sdk";
