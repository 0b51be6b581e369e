// Open-Meteo forecast and air-quality endpoints: free, no key.
export const main = {
    namespace: 'openmeteo',
    name: 'Forecast',
    description: 'Hourly weather forecasts and current conditions for a coordinate, from the public Open-Meteo API.',
    version: '4.2.0',
    root: 'https://api.open-meteo.com',
    docs: [ 'https://open-meteo.com/en/docs' ],
    tags: [ 'weather', 'forecast' ],
    termsOfService: 'https://open-meteo.com/en/terms',
    requiredServerParams: [],
    resources: {
        about: { source: 'markdown', origin: 'inline', name: 'openmeteo-about.md', description: 'What the Open-Meteo namespace offers, its limits and its use cases.' }
    },
    tools: {
        getHourlyForecast: {
            method: 'GET',
            path: '/v1/forecast',
            description: 'Returns the hourly 2 m air temperature (°C) and precipitation (mm) forecast for the next 7 days at a latitude/longitude.',
            parameters: [
                { position: { key: 'latitude', value: '{{USER_PARAM}}', location: 'query' }, z: { primitive: 'number()', options: [ 'min(-90)', 'max(90)' ] }, description: 'Latitude in decimal degrees (WGS84).' },
                { position: { key: 'longitude', value: '{{USER_PARAM}}', location: 'query' }, z: { primitive: 'number()', options: [ 'min(-180)', 'max(180)' ] }, description: 'Longitude in decimal degrees (WGS84).' },
                { position: { key: 'hourly', value: 'temperature_2m,precipitation', location: 'query' }, z: { primitive: 'string()', options: [] }, description: 'Fixed list of hourly variables.' }
            ],
            output: {
                mimeType: 'application/json',
                schema: {
                    type: 'object',
                    properties: {
                        latitude: { type: 'number' },
                        longitude: { type: 'number' },
                        hourly: {
                            type: 'object',
                            properties: {
                                time: { type: 'array', items: { type: 'string' } },
                                temperature_2m: { type: 'array', items: { type: 'number' } },
                                precipitation: { type: 'array', items: { type: 'number' } }
                            }
                        }
                    }
                }
            },
            tests: [
                { _description: 'Berlin', latitude: 52.52, longitude: 13.41 },
                { _description: 'Sydney', latitude: -33.87, longitude: 151.21 },
                { _description: 'Quito, near the equator', latitude: -0.18, longitude: -78.47 }
            ]
        },
        getCurrentWeather: {
            method: 'GET',
            path: '/v1/forecast',
            description: 'Returns the current temperature (°C), wind speed (km/h) and WMO weather code at a latitude/longitude.',
            parameters: [
                { position: { key: 'latitude', value: '{{USER_PARAM}}', location: 'query' }, z: { primitive: 'number()', options: [ 'min(-90)', 'max(90)' ] }, description: 'Latitude in decimal degrees (WGS84).' },
                { position: { key: 'longitude', value: '{{USER_PARAM}}', location: 'query' }, z: { primitive: 'number()', options: [ 'min(-180)', 'max(180)' ] }, description: 'Longitude in decimal degrees (WGS84).' },
                { position: { key: 'current', value: 'temperature_2m,wind_speed_10m,weather_code', location: 'query' }, z: { primitive: 'string()', options: [] }, description: 'Fixed list of current variables.' }
            ],
            output: {
                mimeType: 'application/json',
                schema: {
                    type: 'object',
                    properties: {
                        current: {
                            type: 'object',
                            properties: {
                                time: { type: 'string' },
                                temperature_2m: { type: 'number' },
                                wind_speed_10m: { type: 'number' },
                                weather_code: { type: 'number' }
                            }
                        }
                    }
                }
            },
            tests: [
                { _description: 'Berlin', latitude: 52.52, longitude: 13.41 },
                { _description: 'Reykjavik', latitude: 64.15, longitude: -21.94 },
                { _description: 'Nairobi', latitude: -1.29, longitude: 36.82 }
            ]
        }
    }
}
