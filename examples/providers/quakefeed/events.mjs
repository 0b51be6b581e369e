// An earthquake feed with a problem a grader must catch: getEvent has a single test, and it fails.
export const main = {
    namespace: 'quakefeed',
    name: 'Events',
    description: 'Recent earthquakes worldwide, filtered by magnitude and time window, from the QuakeFeed API.',
    version: '4.2.0',
    root: 'https://api.quakefeed.xyz',
    docs: [ 'https://quakefeed.xyz/docs' ],
    tags: [ 'earthquakes', 'geology' ],
    requiredServerParams: [],
    tools: {
        listRecentEvents: {
            method: 'GET',
            path: '/v2/events',
            description: 'Returns earthquakes of at least a minimum magnitude in the last N hours, newest first.',
            parameters: [
                { position: { key: 'minMagnitude', value: '{{USER_PARAM}}', location: 'query' }, z: { primitive: 'number()', options: [ 'min(0)', 'max(10)' ] }, description: 'Minimum magnitude.' },
                { position: { key: 'hours', value: '{{USER_PARAM}}', location: 'query' }, z: { primitive: 'number()', options: [ 'min(1)', 'max(720)' ] }, description: 'Time window in hours.' }
            ],
            output: { mimeType: 'application/json', schema: { type: 'object', properties: { events: { type: 'array', items: { type: 'object' } } } } },
            tests: [
                { _description: 'Strong quakes, last day', minMagnitude: 5, hours: 24 },
                { _description: 'Moderate quakes, last week', minMagnitude: 4, hours: 168 },
                { _description: 'Any quake, last hour', minMagnitude: 0, hours: 1 }
            ]
        },
        getEvent: {
            method: 'GET',
            path: '/v2/events/{{eventId}}',
            description: 'Returns one earthquake by its event id.',
            parameters: [
                { position: { key: 'eventId', value: '{{USER_PARAM}}', location: 'insert' }, z: { primitive: 'string()', options: [] }, description: 'Event id as listed by listRecentEvents.' }
            ],
            output: { mimeType: 'application/json', schema: { type: 'object', properties: { id: { type: 'string' }, magnitude: { type: 'number' }, place: { type: 'string' } } } },
            tests: [
                { _description: 'A known event', eventId: 'qf2026abc' }
            ]
        }
    }
}
